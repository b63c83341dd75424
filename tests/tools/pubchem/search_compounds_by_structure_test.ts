import assert from "node:assert/strict";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("search_compounds_by_structure over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/compound/fastsubstructure/smiles/cids/JSON", "built__fastsubstructure_cids_benzoic_acid.json"),
    reply("/pug/compound/fastsuperstructure/cid/1/cids/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply("/pug/compound/fastidentity/smiles/cids/JSON", "built__fault_bad_request_smiles.json", 400),
    reply("/pug/compound/fastidentity/cid/7/cids/JSON", "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: SMILES substructure search, query in the POST body, MaxRecords in the URL", async () => {
      const smiles = "C1=CC=C(C=C1)C(=O)O";
      const result = await h.call("search_compounds_by_structure", {
        searchType: "substructure",
        query: smiles,
        queryType: "smiles",
        maxRecords: 2,
      });
      assert.deepEqual(result.structuredContent?.cids, [243, 338]);
      assert.ok(result.structuredContent?.next_cursor, "more hits than the page: a next page");
      const req = h.requests.at(-1)!;
      assert.equal(req.method, "POST");
      assert.equal(req.url.searchParams.get("MaxRecords"), "3");
      assert.equal(new URLSearchParams(req.body).get("smiles"), smiles);
    });
    await t.step("not found: no match is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(
        await h.call("search_compounds_by_structure", { searchType: "superstructure", query: "1", queryType: "cid" }),
      );
      assert.equal(error.code, "ENTITY_NOT_FOUND");
    });
    await t.step(
      "bad input: queryType 'cid' with a non-numeric query names both fields, before any request",
      async () => {
        const before = h.requests.length;
        const error = errorOf(
          await h.call("search_compounds_by_structure", { searchType: "identity", query: "aspirin", queryType: "cid" }),
        );
        assert.equal(error.code, "INVALID_INPUT");
        assert.match(error.message, /'query' with 'queryType'/);
        assert.deepEqual((error.invalid_input as { field: string }).field, "query, queryType");
        assert.equal(h.requests.length, before);
      },
    );
    await t.step("bad input: maxRecords above 100 and empty queries are refused", async () => {
      for (
        const args of [
          { searchType: "identity", query: "2244", queryType: "cid", maxRecords: 101 },
          { searchType: "identity", query: "", queryType: "smiles" },
          { searchType: "similar", query: "2244", queryType: "cid" },
        ]
      ) {
        assert.equal(errorOf(await h.call("search_compounds_by_structure", args)).code, "INVALID_INPUT");
      }
    });
    await t.step("fault: PubChem's BadRequest for an unparsable SMILES is INVALID_INPUT on 'query'", async () => {
      const error = errorOf(
        await h.call("search_compounds_by_structure", { searchType: "identity", query: "C1CC(", queryType: "smiles" }),
      );
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /'query'.*standardize/);
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      const error = errorOf(
        await h.call("search_compounds_by_structure", { searchType: "identity", query: "7", queryType: "cid" }),
      );
      assert.equal(error.code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});

Deno.test("search_compounds_by_structure finishes a timed-out search through the ListKey flow, with progress", async () => {
  let polls = 0;
  const h = await pubchemHarness(
    reply("/pug/compound/fastsubstructure/cid/241/cids/JSON", "built__fault_timeout.json", 504),
    reply("/pug/compound/substructure/cid/241/cids/JSON", "built__waiting_listkey.json", 202),
    (req) => {
      if (!req.url.pathname.endsWith("/listkey/3318153796219856547/cids/JSON")) return undefined;
      const name = ++polls < 2 ? "built__waiting_listkey.json" : "built__listkey_cids.json";
      return reply(/./, name, polls < 2 ? 202 : 200)(req);
    },
  );
  try {
    const progress: number[] = [];
    const result = await h.call(
      "search_compounds_by_structure",
      { searchType: "substructure", query: "241", queryType: "cid", maxRecords: 3 },
      progress,
    );
    assert.deepEqual(result.structuredContent?.cids, [2244, 338, 5161]);
    assert.deepEqual(progress, [1, 2]);
    const paths = h.requests.map((r) => r.url.pathname);
    assert.ok(paths.includes("/rest/pug/compound/substructure/cid/241/cids/JSON"));
    assert.equal(paths.filter((p) => p.includes("/listkey/")).length, 2);
  } finally {
    await h.close();
  }
});
