import assert from "node:assert/strict";
import { MOLECULAR_FORMULA_REGEX } from "../../../src/tools/pubchem/search_compounds_by_formula.ts";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("MOLECULAR_FORMULA_REGEX accepts element symbols with counts and nothing else", () => {
  for (const ok of ["C9H8O4", "NaCl", "C6H12O6", "H2O", "U"]) assert.match(ok, MOLECULAR_FORMULA_REGEX);
  for (const bad of ["c9h8o4", "C9 H8O4", "C9H8O4-", "9C", "", "C9H8O4;DROP", "(CH3)2O"]) {
    assert.doesNotMatch(bad, MOLECULAR_FORMULA_REGEX);
  }
});

Deno.test("search_compounds_by_formula over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/compound/fastformula/C9H8O4/cids/JSON", "built__fastformula_cids_C9H8O4.json"),
    reply("/pug/compound/fastformula/Xe9/cids/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply("/pug/compound/fastformula/H2O/cids/JSON", "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: formula in the path, AllowOtherElements and MaxRecords as options", async () => {
      const result = await h.call("search_compounds_by_formula", { formula: "C9H8O4", maxRecords: 10 });
      assert.deepEqual(result.structuredContent, { cids: [2244, 689043] });
      const url = h.requests.at(-1)!.url;
      assert.equal(url.searchParams.get("AllowOtherElements"), "false");
      assert.equal(
        url.searchParams.get("MaxRecords"),
        "11",
        "a page of 10 and one more, to know whether a next page exists",
      );
    });
    await t.step("not found: a formula nothing has is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(await h.call("search_compounds_by_formula", { formula: "Xe9" }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.recovery_hint, /allowOtherElements/);
    });
    await t.step("bad input: lower case, spaces and punctuation are refused before any request", async () => {
      const before = h.requests.length;
      for (const formula of ["c9h8o4", "C9 H8O4", "C9H8O4/"]) {
        const error = errorOf(await h.call("search_compounds_by_formula", { formula }));
        assert.equal(error.code, "INVALID_INPUT");
        assert.match(error.message, /'formula'/);
      }
      assert.equal(h.requests.length, before);
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      assert.equal(errorOf(await h.call("search_compounds_by_formula", { formula: "H2O" })).code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});
