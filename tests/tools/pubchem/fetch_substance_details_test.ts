import assert from "node:assert/strict";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("fetch_substance_details over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/substance/sid/4594/JSON", "built__substance_sid_4594.json"),
    reply("/pug/substance/sid/4594/dates/JSON", "built__substance_dates_sid_4594.json"),
    reply(/^\/pug\/substance\/sid\/1\//, "metmashr__fault_name_no_hit_cids.json", 404),
    reply(/^\/pug\/substance\/sid\/7\//, "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: source, ISO dates, synonyms and related CIDs from two requests", async () => {
      const result = await h.call("fetch_substance_details", { sid: 4594 });
      assert.deepEqual(result.structuredContent, {
        sid: 4594,
        sourceName: "KEGG",
        sourceId: "C01405",
        depositionDate: "2005-03-26",
        modificationDate: "2025-01-18",
        synonyms: [
          "Acetylsalicylate",
          "Acetylsalicylic acid",
          "Aspirin",
          "2-Acetoxybenzenecarboxylic acid",
          "50-78-2",
          "C01405",
        ],
        relatedCids: [2244],
      });
      assert.deepEqual(h.requests.map((r) => r.url.pathname).sort(), [
        "/rest/pug/substance/sid/4594/JSON",
        "/rest/pug/substance/sid/4594/dates/JSON",
      ]);
      const dates = h.requests.find((r) => r.url.pathname.endsWith("/dates/JSON"))!;
      assert.equal(dates.url.searchParams.get("dates_type"), "deposition,modification");
    });
    await t.step("not found: an unknown SID is ENTITY_NOT_FOUND with a hint about SIDs and CIDs", async () => {
      const error = errorOf(await h.call("fetch_substance_details", { sid: 1 }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.recovery_hint, /CID/);
    });
    await t.step("bad input: non-positive or non-integer SIDs are refused", async () => {
      for (const sid of [0, -1, 1.5, "SID4594"]) {
        assert.equal(errorOf(await h.call("fetch_substance_details", { sid })).code, "INVALID_INPUT");
      }
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      assert.equal(errorOf(await h.call("fetch_substance_details", { sid: 7 })).code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});
