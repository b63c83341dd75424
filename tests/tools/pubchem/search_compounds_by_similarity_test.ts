import assert from "node:assert/strict";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("search_compounds_by_similarity over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/compound/fastsimilarity_2d/cid/2244/cids/JSON", "built__fastsimilarity_2d_cids_2244.json"),
    reply("/pug/compound/fastsimilarity_2d/cid/1/cids/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply("/pug/compound/fastsimilarity_2d/cid/7/cids/JSON", "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: by CID with Threshold and MaxRecords", async () => {
      const result = await h.call("search_compounds_by_similarity", {
        query: "2244",
        queryType: "cid",
        threshold: 95,
        maxRecords: 10,
      });
      assert.deepEqual(result.structuredContent, { cids: [2244, 338, 5161, 10745] });
      const url = h.requests.at(-1)!.url;
      assert.equal(url.searchParams.get("Threshold"), "95");
      assert.equal(
        url.searchParams.get("MaxRecords"),
        "11",
        "a page of 10 and one more, to know whether a next page exists",
      );
    });
    await t.step("success: defaults are threshold 90 and 20 records", async () => {
      await h.call("search_compounds_by_similarity", { query: " 2244 ", queryType: "cid" });
      const url = h.requests.at(-1)!.url;
      assert.equal(url.searchParams.get("Threshold"), "90");
      assert.equal(url.searchParams.get("MaxRecords"), "21");
    });
    await t.step(
      "not found: nothing similar enough is ENTITY_NOT_FOUND with a hint to lower the threshold",
      async () => {
        const error = errorOf(await h.call("search_compounds_by_similarity", { query: "1", queryType: "cid" }));
        assert.equal(error.code, "ENTITY_NOT_FOUND");
        assert.match(error.recovery_hint, /threshold/);
      },
    );
    await t.step("a decimal threshold is accepted and searched at the next whole percentage", async () => {
      const result = await h.call("search_compounds_by_similarity", {
        query: "2244",
        queryType: "cid",
        threshold: 85.5,
      });
      assert.deepEqual(result.structuredContent, { cids: [2244, 338, 5161, 10745] });
      assert.equal(h.requests.at(-1)!.url.searchParams.get("Threshold"), "86");
    });
    await t.step("bad input: a SMILES given as 'cid', thresholds out of 70-100", async () => {
      const incoherent = errorOf(await h.call("search_compounds_by_similarity", { query: "CCO", queryType: "cid" }));
      assert.equal(incoherent.code, "INVALID_INPUT");
      assert.match(incoherent.message, /'query' with 'queryType'/);
      for (const threshold of [69, 101, 69.9, 100.5]) {
        const error = errorOf(
          await h.call("search_compounds_by_similarity", { query: "2244", queryType: "cid", threshold }),
        );
        assert.equal(error.code, "INVALID_INPUT");
        assert.match(error.message, /threshold/);
      }
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      const error = errorOf(await h.call("search_compounds_by_similarity", { query: "7", queryType: "cid" }));
      assert.equal(error.code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});

Deno.test("search_compounds_by_similarity submits a timed-out SMILES search asynchronously, SMILES in the body", async () => {
  const smiles = "CC(=O)OC1=CC=CC=C1C(=O)O";
  const h = await pubchemHarness(
    reply("/pug/compound/fastsimilarity_2d/smiles/cids/JSON", "built__fault_timeout.json", 504),
    reply("/pug/compound/similarity/smiles/cids/JSON", "built__waiting_listkey.json", 202),
    reply("/pug/compound/listkey/3318153796219856547/cids/JSON", "built__listkey_cids.json"),
  );
  try {
    const result = await h.call("search_compounds_by_similarity", { query: smiles, queryType: "smiles" });
    assert.deepEqual(result.structuredContent, { cids: [2244, 338, 5161, 10745] });
    const submit = h.requests.find((r) => r.url.pathname === "/rest/pug/compound/similarity/smiles/cids/JSON")!;
    assert.equal(submit.method, "POST");
    assert.equal(new URLSearchParams(submit.body).get("smiles"), smiles);
    assert.equal(submit.url.searchParams.get("Threshold"), "90");
  } finally {
    await h.close();
  }
});
