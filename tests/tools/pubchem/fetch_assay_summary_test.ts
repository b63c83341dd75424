import assert from "node:assert/strict";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("fetch_assay_summary over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/assay/aid/1851/summary/JSON", "built__assay_summary_aid_1851.json"),
    reply("/pug/assay/aid/1851/targets/ProteinName,GeneID,GeneSymbol/JSON", "built__assay_targets_aid_1851.json"),
    reply(/^\/pug\/assay\/aid\/1\//, "metmashr__fault_name_no_hit_cids.json", 404),
    reply(/^\/pug\/assay\/aid\/7\//, "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: name, description, source, counts and targets with gene id and symbol", async () => {
      const result = await h.call("fetch_assay_summary", { aid: 1851 });
      const s = result.structuredContent as Record<string, unknown> & { targets: Record<string, unknown>[] };
      assert.equal(s.aid, 1851);
      assert.equal(s.name, "Cytochrome panel assay with activity outcomes");
      assert.equal(s.sourceName, "NCGC");
      assert.equal(s.numSids, 17143);
      assert.equal(s.numActive, 10170);
      assert.equal(s.numActiveCids, 9562);
      assert.match(String(s.description), /five isozymes/);
      assert.equal(s.targets.length, 5);
      assert.deepEqual(s.targets[3], {
        name: "cytochrome P450 2D6",
        accession: "P10635",
        geneId: 1565,
        geneSymbol: "CYP2D6",
      });
    });
    await t.step("not found: an unknown AID is ENTITY_NOT_FOUND pointing to search_assays_by_target", async () => {
      const error = errorOf(await h.call("fetch_assay_summary", { aid: 1 }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.recovery_hint, /search_assays_by_target/);
    });
    await t.step("bad input: non-positive or missing AIDs are refused", async () => {
      for (const args of [{ aid: 0 }, {}, { aid: 1851, cid: 2 }]) {
        assert.equal(errorOf(await h.call("fetch_assay_summary", args)).code, "INVALID_INPUT");
      }
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      assert.equal(errorOf(await h.call("fetch_assay_summary", { aid: 7 })).code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});
