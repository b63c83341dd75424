import assert from "node:assert/strict";
import { EXIT_OK, EXIT_TOOL_ERROR } from "../../../src/cli/main.ts";
import { parseMeshSummaries } from "../../../src/sources/ncbi/mesh/client.ts";
import { fixture } from "../../helpers/runtime.ts";
import { withTools } from "../../helpers/tool_harness.ts";
import { cliCall } from "../citations/cli_io.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "pubmed" };

Deno.test("the recorded MeSH summary reads as heading, entry terms, scope note and mapped heading", () => {
  const [r] = parseMeshSummaries(fixture("ncbi/eutils/eutilsjson__esummary.mesh.xml"), "u");
  assert.equal(r.ui, "C414177");
  assert.equal(r.heading, "SLC7A2 protein, human");
  assert.equal(r.entryTerms.length, 4);
  assert.equal(r.scopeNote, "RefSeq NM_003046");
  assert.deepEqual(r.treeNumbers, [], "a supplementary concept's '@' link is not a tree number");
  assert.deepEqual(r.mappedTo, ["68026923"]);
  assert.deepEqual(r.previousIndexing, ["CALCIUM CHANNELS (2000-2006)"]);
});

Deno.test("lookupMesh answers over MCP with the record and its text", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("lookupMesh", { term: "SLC7A2 protein" });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [rec] = result.structuredContent.records as Record<string, unknown>[];
    assert.equal(rec.heading, "SLC7A2 protein, human");
    assert.match(result.content[0].text, /^C414177: SLC7A2 protein, human \(uid 67414177\)$/m);
    assert.ok(h.requests.some((r) => r.url.searchParams.get("db") === "mesh"));
  });
});

Deno.test("lookupMesh from the CLI; an unknown term is ENTITY_NOT_FOUND", async () => {
  await withTools({ env: ENV }, async (h) => {
    const ok = await cliCall(h, "lookupMesh", { term: "cationic amino acid transporter" });
    assert.equal(ok.code, EXIT_OK, ok.out);
    assert.equal(JSON.parse(ok.out).records[0].uid, "67414177");
    const none = await cliCall(h, "lookupMesh", { term: "zzzqqq" });
    assert.equal(none.code, EXIT_TOOL_ERROR);
    assert.equal(JSON.parse(none.out).error.code, "ENTITY_NOT_FOUND");
  });
});
