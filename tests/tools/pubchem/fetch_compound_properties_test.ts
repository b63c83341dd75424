import assert from "node:assert/strict";
import { busy, errorOf, pubchemHarness, reply } from "./helpers.ts";
import { pubchemFixture } from "../../sources/pubchem/fakes.ts";

const PROPS = ["MolecularWeight", "ExactMass", "SMILES", "CanonicalSMILES", "XLogP", "HBondDonorCount"];

Deno.test("fetch_compound_properties gives the same types for pre-2025 and 2025 PubChem answers", async () => {
  const old = await pubchemHarness(reply(/\/property\//, "webchem__property_cid5564_all.json"));
  const current = await pubchemHarness(reply(/\/property\//, "built__property_cids_2244_3672_2025_names.json"));
  try {
    const a = await old.call("fetch_compound_properties", { cids: [2244], properties: PROPS });
    const b = await current.call("fetch_compound_properties", { cids: [2244], properties: PROPS });
    const expected = {
      results: [{
        CID: 2244,
        MolecularWeight: 180.16,
        ExactMass: 180.04225873,
        SMILES: "CC(=O)OC1=CC=CC=C1C(=O)O",
        CanonicalSMILES: "CC(=O)OC1=CC=CC=C1C(=O)O",
        XLogP: 1.2,
        HBondDonorCount: 1,
      }],
      notFoundCids: [],
    };
    assert.deepEqual(a.structuredContent, expected);
    assert.deepEqual(b.structuredContent, expected);
    assert.equal(
      current.requests[0].url.pathname,
      "/rest/pug/compound/cid/2244/property/MolecularWeight,SMILES,ConnectivitySMILES,XLogP,ExactMass,HBondDonorCount/JSON",
    );
  } finally {
    await old.close();
    await current.close();
  }
});

Deno.test("fetch_compound_properties over MCP", async (t) => {
  const h = await pubchemHarness(
    reply(
      "/pug/compound/cid/2244,999999999/property/MolecularFormula/JSON",
      "built__property_cids_2244_3672_2025_names.json",
    ),
    reply("/pug/compound/cid/999999998/property/MolecularFormula/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply("/pug/compound/cid/property/MolecularFormula/JSON", "built__property_cids_2244_3672_2025_names.json"),
    reply("/pug/compound/cid/77/property/MolecularFormula/JSON", "built__fault_server_busy.json", 503),
  );
  try {
    await t.step(
      "success: unknown CIDs are reported next to the known ones, unrequested rows are dropped",
      async () => {
        const result = await h.call("fetch_compound_properties", {
          cids: [2244, 999999999],
          properties: ["MolecularFormula"],
        });
        assert.deepEqual(result.structuredContent, {
          results: [{ CID: 2244, MolecularFormula: "C9H8O4" }, { CID: 999999999, notFound: true }],
          notFoundCids: [999999999],
        });
        assert.match(result.content[0].text ?? "", /notFoundCids: 999999999\n[^]*## CID 999999999: not found/);
      },
    );
    await t.step("success: 250 CIDs go out as two POST requests with the CID list in the body", async () => {
      const before = h.requests.length;
      const cids = Array.from({ length: 250 }, (_, i) => 3000 + i);
      cids[0] = 2244;
      const result = await h.call("fetch_compound_properties", { cids, properties: ["MolecularFormula"] });
      const sent = h.requests.slice(before);
      assert.equal(sent.length, 2);
      assert.ok(sent.every((r) => r.method === "POST"));
      assert.deepEqual(
        sent.map((r) => new URLSearchParams(r.body).get("cid")!.split(",").length).sort(),
        [200, 50].sort(),
      );
      const content = result.structuredContent as { results: unknown[]; notFoundCids: number[] };
      assert.equal(content.results.length, 250);
      assert.equal(content.notFoundCids.length, 249);
    });
    await t.step("not found: when no CID exists the call fails with ENTITY_NOT_FOUND", async () => {
      const error = errorOf(
        await h.call("fetch_compound_properties", { cids: [999999998], properties: ["MolecularFormula"] }),
      );
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.message, /999999998/);
    });
    await t.step("bad input: empty lists, non-positive CIDs and unknown properties are refused", async () => {
      for (
        const args of [
          { cids: [], properties: ["MolecularFormula"] },
          { cids: [0], properties: ["MolecularFormula"] },
          { cids: [2244], properties: [] },
          { cids: [2244], properties: ["Fingerprint9D"] },
          { cids: ["aspirin"], properties: ["MolecularFormula"] },
        ]
      ) {
        const error = errorOf(await h.call("fetch_compound_properties", args));
        assert.equal(error.code, "INVALID_INPUT");
      }
    });
    await t.step("fault: ServerBusy becomes RATE_LIMITED", async () => {
      const error = errorOf(
        await h.call("fetch_compound_properties", { cids: [77], properties: ["MolecularFormula"] }),
      );
      assert.equal(error.code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});

Deno.test("fetch_compound_properties fails the whole call on a fault it cannot attribute to CIDs", async () => {
  const h = await pubchemHarness(busy);
  try {
    const error = errorOf(await h.call("fetch_compound_properties", { cids: [1, 2], properties: ["Title"] }));
    assert.equal(error.code, "RATE_LIMITED");
  } finally {
    await h.close();
  }
});

Deno.test("fetch_compound_properties keeps a row in another shape and says so in warnings", async () => {
  // The recorded webchem answer with MolecularWeight of CID 2244 sent as an object (BUILT variant).
  const doc = JSON.parse(pubchemFixture("webchem__property_cid5564_all.json"));
  doc.PropertyTable.Properties[1].MolecularWeight = { value: 180.16 };
  const h = await pubchemHarness((req) =>
    /\/property\//.test(req.url.pathname) ? new Response(JSON.stringify(doc)) : undefined
  );
  try {
    const r = await h.call("fetch_compound_properties", { cids: [2244], properties: ["MolecularWeight", "XLogP"] });
    assert.equal(r.isError, undefined);
    const out = r.structuredContent as { results: Record<string, unknown>[]; warnings?: string[] };
    assert.deepEqual(out.results, [{ CID: 2244, XLogP: 1.2 }]);
    assert.equal(out.warnings?.length, 1);
    assert.match(out.warnings![0], /CID 2244\) does not match the expected shape \(MolecularWeight/);
    assert.match(r.content[0].text!, /^warning: PubChem property row 2 \(CID 2244\)/m);
  } finally {
    await h.close();
  }
});
