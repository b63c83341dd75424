/**
 * The README's "One search over every source, and authors" block, run as written against the mock upstream: each
 * `deno task cli call <tool> '<json>'` line through the CLI; the author id the third line uses is the one the
 * second line finds, and the merged search's hits name their sources.
 */
import assert from "node:assert/strict";
import { EXIT_OK } from "../../src/cli/main.ts";
import { withTools } from "../helpers/tool_harness.ts";
import { cliCall } from "../tools/citations/cli_io.ts";
import { ROOT } from "./helpers.ts";

const README = await Deno.readTextFile(`${ROOT}README.md`);

function blockLines(): { tool: string; args: Record<string, unknown> }[] {
  const from = README.indexOf("### One search over every source, and authors\n");
  assert.ok(from >= 0, "the README has the section");
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(from))![1];
  return block.trim().split("\n").map((line) => {
    const m = /^deno task cli call (\S+) '([^']+)'$/.exec(line.trim());
    assert.ok(m, `a CLI call line: ${line}`);
    return { tool: m[1], args: JSON.parse(m[2]) };
  });
}

Deno.test("README: one search over every source, an author by name and affiliation, then their works", async () => {
  const [all, author, works] = blockLines();
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "papers" }, driveClock: true }, async (h) => {
    const merged = await cliCall(h, all.tool, all.args);
    assert.equal(merged.code, EXIT_OK, merged.out + merged.err);
    const hits = JSON.parse(merged.out).papers as { sources: string[] }[];
    assert.equal(hits.length, all.args.count);
    assert.ok(hits.every((p) => p.sources.length >= 1));

    const found = await cliCall(h, author.tool, author.args);
    assert.equal(found.code, EXIT_OK, found.out + found.err);
    assert.equal(JSON.parse(found.out).authors[0].id, works.args.author, "the third line uses the id the second finds");

    const listed = await cliCall(h, works.tool, works.args);
    assert.equal(listed.code, EXIT_OK, listed.out + listed.err);
    assert.ok(JSON.parse(listed.out).papers.length > 0);
  });
});
