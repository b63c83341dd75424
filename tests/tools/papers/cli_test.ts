import assert from "node:assert/strict";
import { type CliIo, EXIT_OK, EXIT_TOOL_ERROR, runCli } from "../../../src/cli/main.ts";
import { papersRuntime, settle } from "./mock.ts";

/** F-5: the CLI runs the same ToolDefs, here against the papers mock routes. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { runtime, clock } = papersRuntime();
  const captured = { out: "", err: "" };
  const io: CliIo = {
    stdout: (text) => void (captured.out += text),
    stderr: (text) => void (captured.err += text),
    stderrIsTerminal: false,
    runtime: () => runtime,
  };
  const code = await settle(clock, runCli(argv, io));
  return { code, ...captured };
}

Deno.test("papers tools from the CLI", async (t) => {
  await t.step("fetch_latest --source arxiv --category cs.LG --count 5", async () => {
    const r = await cli(["call", "fetch_latest", "--source", "arxiv", "--category", "cs.LG", "--count", "5"]);
    assert.equal(r.code, EXIT_OK, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.papers.length, 5);
    assert.equal(out.papers[0].id, "2202.12139v1");
  });
  await t.step("fetch_top_cited with a topic id", async () => {
    const r = await cli(["call", "fetch_top_cited", "--concept", "T11636", "--since", "2020-01-01", "--count", "3"]);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.equal(JSON.parse(r.out).papers.length, 3);
  });
  await t.step("#37: search_papers --source all, find_author, then the author's works", async () => {
    const all = await cli(["call", "search_papers", "--query", "malaria vaccine", "--source", "all", "--count", "8"]);
    assert.equal(all.code, EXIT_OK, all.err);
    assert.ok(JSON.parse(all.out).papers.every((p: { sources: string[] }) => p.sources.length >= 1));
    const author = await cli(["call", "find_author", "--name", "Tokuzawa", "--affiliation", "Kyushu University"]);
    assert.equal(author.code, EXIT_OK, author.err);
    const id = JSON.parse(author.out).authors[0].id;
    assert.equal(id, "A5043579160");
    const works = await cli(["call", "search_papers", "--source", "openalex", "--author", id, "--sort", "citations"]);
    assert.equal(works.code, EXIT_OK, works.err);
    assert.ok(JSON.parse(works.out).papers.length > 0);
  });
  await t.step("list_categories for arXiv", async () => {
    const r = await cli(["call", "list_categories", "--source", "arxiv", "--query", "quant-ph"]);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.deepEqual(JSON.parse(r.out).categories.map((c: { id: string }) => c.id), ["quant-ph"]);
  });
  await t.step("fetch_content reports progress on stderr", async () => {
    const r = await cli(["call", "fetch_content", "--source", "arxiv", "--id", "2501.11120v1", "--max_chars", "2000"]);
    assert.equal(r.code, EXIT_OK, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.content_format, "html");
    assert.ok(out.returned_chars <= 2000);
    assert.match(r.err, /progress .*arXiv HTML of 2501\.11120v1/);
  });
  await t.step("a tool error exits 2 with the envelope", async () => {
    const r = await cli(["call", "fetch_content", "--source", "arxiv", "--id", "0000.0000"]);
    assert.equal(r.code, EXIT_TOOL_ERROR);
    assert.equal(JSON.parse(r.out).error.code, "ENTITY_NOT_FOUND");
  });
  await t.step("a paper without open full text gives its abstract and what was tried", async () => {
    const r = await cli(["call", "fetch_content", "--source", "arxiv", "--id", "2104.12255v1"]);
    assert.equal(r.code, EXIT_OK, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.content_format, "abstract");
    assert.equal(out.tried.length, 3);
  });
  await t.step("search_papers --source europepmc marks preprints and pages by cursor", async () => {
    const r = await cli([
      "call",
      "search_papers",
      "--source",
      "europepmc",
      "--query",
      "SRC:PPR AND cancer",
      "--count",
      "2",
    ]);
    assert.equal(r.code, EXIT_OK, r.err);
    const out = JSON.parse(r.out);
    assert.deepEqual(out.papers.map((p: { preprint?: boolean }) => p.preprint), [true, true]);
    assert.ok(out.next_cursor);
  });
  await t.step("fetch_content --source europepmc reads Europe PMC's XML", async () => {
    const r = await cli(["call", "fetch_content", "--source", "europepmc", "--id", "PMC3258128", "--section", "1"]);
    assert.equal(r.code, EXIT_OK, r.err);
    const out = JSON.parse(r.out);
    assert.deepEqual([out.content_format, out.section.heading], ["jats", "Abstract"]);
  });
});
