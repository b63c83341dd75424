/**
 * The pubchem tools against the mock routes (scripts/mock_routes/pubchem.ts): every ToolDef example
 * succeeds, the mock's sentinels produce the documented failures, and the aspirin workflow yields PMIDs.
 */
import assert from "node:assert/strict";
import { pubchemTools } from "../../../src/tools/pubchem/mod.ts";
import { errorOf, mockRoutesHarness } from "./helpers.ts";

Deno.test("every pubchem ToolDef example succeeds against the mock routes", async () => {
  const h = await mockRoutesHarness();
  try {
    assert.equal(pubchemTools.length, 14);
    for (const tool of pubchemTools) {
      assert.ok(tool.examples.length > 0, `${tool.name} has examples`);
      for (const example of tool.examples) {
        const result = await h.call(tool.name, example as Record<string, unknown>);
        assert.equal(result.isError, undefined, `${tool.name} ${JSON.stringify(example)}: ${result.content[0]?.text}`);
        assert.ok(tool.output.safeParse(result.structuredContent).success, `${tool.name} output matches its schema`);
      }
    }
  } finally {
    await h.close();
  }
});

Deno.test("aspirin workflow on the mock: name → CID → PubMed ids the PubMed mock serves", async () => {
  const h = await mockRoutesHarness();
  try {
    const search = await h.call("search_compound_by_identifier", { identifierType: "name", identifier: "aspirin" });
    const [cid] = (search.structuredContent as { cids: number[] }).cids;
    assert.equal(cid, 2244);
    const xrefs = await h.call("fetch_compound_xrefs", { cid, xrefTypes: ["PubMedID"] });
    assert.deepEqual((xrefs.structuredContent as { xrefs: { PubMedID: number[] } }).xrefs.PubMedID, [
      9997,
      11748933,
      12091962,
      27797938,
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("mock routes: sentinels give NotFound, BadRequest, CID 0 and the ListKey flow", async (t) => {
  const h = await mockRoutesHarness();
  try {
    await t.step("an unknown name is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "name", identifier: "unobtainium" }),
      );
      assert.equal(error.code, "ENTITY_NOT_FOUND");
    });
    await t.step("an unbalanced SMILES is PubChem's BadRequest → INVALID_INPUT", async () => {
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "smiles", identifier: "CC(O" }),
      );
      assert.equal(error.code, "INVALID_INPUT");
    });
    await t.step("a valid SMILES PubChem does not hold (CID 0) is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(
        await h.call("search_compound_by_identifier", { identifierType: "smiles", identifier: "C[Xe]C" }),
      );
      assert.equal(error.code, "ENTITY_NOT_FOUND");
    });
    await t.step("CID 241 times out on the fast search and completes through the ListKey", async () => {
      const progress: number[] = [];
      const result = await h.call(
        "search_compounds_by_structure",
        { searchType: "substructure", query: "241", queryType: "cid" },
        progress,
      );
      assert.deepEqual(result.structuredContent, { cids: [2244, 338, 5161, 10745] });
      assert.deepEqual(progress, [1]);
    });
    await t.step("properties of the pre-2025 recording (CID 5564) come out in the 2025 shape", async () => {
      const result = await h.call("fetch_compound_properties", {
        cids: [5564],
        properties: ["SMILES", "MolecularWeight"],
      });
      assert.deepEqual(result.structuredContent, {
        results: [{ CID: 5564, SMILES: "C1=CC(=C(C=C1Cl)O)OC2=C(C=C(C=C2)Cl)Cl", MolecularWeight: 289.5 }],
        notFoundCids: [],
      });
    });
  } finally {
    await h.close();
  }
});
