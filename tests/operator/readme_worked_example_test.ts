/**
 * The README's worked example (PubChem xrefs → PubMed), run as written against the mock upstream: each
 * `deno task cli call <tool> '<json>'` line through the CLI, the PMIDs the first prints are the ones the
 * comment shows, and the second line's PMIDs are among them and come back as articles.
 */
import assert from "node:assert/strict";
import { EXIT_OK } from "../../src/cli/main.ts";
import { withTools } from "../helpers/tool_harness.ts";
import { cliCall } from "../tools/citations/cli_io.ts";
import { ROOT } from "./helpers.ts";

const README = await Deno.readTextFile(`${ROOT}README.md`);

function exampleLines(): { tool: string; args: Record<string, unknown>; comment: string }[] {
  const from = README.indexOf("### Worked example: from a compound to its papers\n");
  assert.ok(from >= 0, "the README has the worked example");
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(from))![1];
  return block.trim().split("\n").map((line) => {
    const m = /^deno task cli call (\S+) '([^']+)'\s*(?:#\s*(.*))?$/.exec(line.trim());
    assert.ok(m, `a CLI call line: ${line}`);
    return { tool: m[1], args: JSON.parse(m[2]), comment: m[3] ?? "" };
  });
}

Deno.test("README worked example: aspirin's PubChem PubMed ids chain into fetchArticleDetails", async () => {
  const [xrefsLine, detailsLine] = exampleLines();
  assert.equal(xrefsLine.tool, "fetch_compound_xrefs");
  assert.equal(detailsLine.tool, "fetchArticleDetails");
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "pubchem,pubmed" } }, async (h) => {
    const first = await cliCall(h, xrefsLine.tool, xrefsLine.args);
    assert.equal(first.code, EXIT_OK, first.out + first.err);
    const pmids = (JSON.parse(first.out).xrefs.PubMedID as (string | number)[]).map(String);
    assert.equal(xrefsLine.comment, `xrefs.PubMedID: [${pmids.join(", ")}]`, "the comment shows what the call prints");

    const wanted = detailsLine.args.pmids as string[];
    assert.ok(wanted.every((p) => pmids.includes(p)), "the second line takes ids the first printed");
    const second = await cliCall(h, detailsLine.tool, detailsLine.args);
    assert.equal(second.code, EXIT_OK, second.out + second.err);
    const out = JSON.parse(second.out) as { articles: { pmid: string; title: string }[]; notFoundPmids: string[] };
    assert.deepEqual(out.articles.map((a) => a.pmid), wanted);
    assert.ok(out.articles.every((a) => a.title.length > 0));
    assert.deepEqual(out.notFoundPmids, []);
  });
});
