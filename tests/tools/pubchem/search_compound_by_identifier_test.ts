import assert from "node:assert/strict";
import { busy, errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("search_compound_by_identifier over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/compound/name/aspirin/cids/JSON", "built__identifierlist_cid_2244.json", 200, {
      "X-Throttling-Control":
        "Request Count status: Yellow (60%), Request Time status: Green (10%), Service status: Green (20%)",
    }),
    reply("/pug/compound/smiles/cids/JSON", "built__identifierlist_cid_2244.json"),
    reply("/pug/compound/name/no_hit/cids/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply("/pug/compound/name/busy/cids/JSON", "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: a name resolves to CIDs with a GET, through a Yellow throttling header", async () => {
      const result = await h.call("search_compound_by_identifier", { identifierType: "name", identifier: "aspirin" });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { cids: [2244] });
      const req = h.requests.at(-1)!;
      assert.equal(req.method, "GET");
      assert.equal(req.url.pathname, "/rest/pug/compound/name/aspirin/cids/JSON");
    });
    await t.step("success: a SMILES with / # + reaches PubChem intact in a form body", async () => {
      for (const smiles of ["C/C=C/C#N", "[NH4+].[Cl-]"]) {
        const result = await h.call("search_compound_by_identifier", { identifierType: "smiles", identifier: smiles });
        assert.equal(result.isError, undefined);
        const req = h.requests.at(-1)!;
        assert.equal(req.method, "POST");
        assert.equal(req.url.pathname, "/rest/pug/compound/smiles/cids/JSON");
        assert.match(req.headers.get("content-type") ?? "", /application\/x-www-form-urlencoded/);
        assert.equal(new URLSearchParams(req.body).get("smiles"), smiles);
      }
    });
    await t.step("not found: PubChem's NotFound fault becomes ENTITY_NOT_FOUND naming the identifier", async () => {
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "name", identifier: "no_hit" }),
      );
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.message, /no_hit/);
      assert.match(error.recovery_hint, /spelling|synonym/);
    });
    await t.step("bad input: a non-InChIKey with identifierType 'inchikey' is refused before any request", async () => {
      const before = h.requests.length;
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "inchikey", identifier: "aspirin" }),
      );
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /'identifier'.*'identifierType'/);
      assert.equal(h.requests.length, before);
    });
    await t.step("bad input: empty and blank identifiers are refused", async () => {
      for (const identifier of ["", "   "]) {
        const error = errorOf(await h.call("search_compound_by_identifier", { identifierType: "name", identifier }));
        assert.equal(error.code, "INVALID_INPUT");
        assert.match(error.message, /'identifier'/);
      }
    });
    await t.step("bad input: a SMILES with spaces is refused, naming both fields", async () => {
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "smiles", identifier: "CC O" }),
      );
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /'identifier'.*'identifierType'/);
    });
    await t.step("fault: ServerBusy is retried by the pipeline, then RATE_LIMITED", async () => {
      const before = h.requests.length;
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "name", identifier: "busy" }),
      );
      assert.equal(error.code, "RATE_LIMITED");
      assert.ok(h.requests.length - before > 1, "the 503 was retried");
    });
  } finally {
    await h.close();
  }
});

Deno.test("search_compound_by_identifier reports a 503 from an unreachable PubChem as RATE_LIMITED", async () => {
  const h = await pubchemHarness(busy);
  try {
    const error = errorOf(
      await h.call("search_compound_by_identifier", {
        identifierType: "inchikey",
        identifier: "BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
      }),
    );
    assert.equal(error.code, "RATE_LIMITED");
    assert.equal(h.requests[0].url.pathname, "/rest/pug/compound/inchikey/BSYNRYMUTXBXSQ-UHFFFAOYSA-N/cids/JSON");
  } finally {
    await h.close();
  }
});
