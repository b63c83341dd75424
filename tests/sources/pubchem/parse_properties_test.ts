import assert from "node:assert/strict";
import { parsePropertyTable, upstreamPropertyNames } from "../../../src/sources/pubchem/parse_properties.ts";
import { ToolError } from "../../../src/core/errors.ts";
import { pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/property/JSON";

Deno.test("parsePropertyTable reads a pre-2025 PropertyTable (CanonicalSMILES/IsomericSMILES, string masses)", async (t) => {
  const text = pubchemFixture("webchem__property_cid5564_all.json");
  const rows = parsePropertyTable(text, URL, [
    "MolecularFormula",
    "MolecularWeight",
    "ExactMass",
    "MonoisotopicMass",
    "XLogP",
    "TPSA",
    "Charge",
    "HBondDonorCount",
    "SMILES",
    "ConnectivitySMILES",
    "CanonicalSMILES",
    "IsomericSMILES",
  ]);
  await t.step("keeps response order and CIDs", () => {
    assert.deepEqual(rows.map((r) => r.CID), [5564, 2244]);
  });
  await t.step("turns MolecularWeight and ExactMass strings into numbers", () => {
    assert.equal(rows[1].MolecularWeight, 180.16);
    assert.equal(rows[1].ExactMass, 180.04225873);
    assert.equal(rows[0].MonoisotopicMass, 287.951163);
    assert.equal(typeof rows[0].MolecularWeight, "number");
  });
  await t.step("keeps numeric properties numeric and integer counts integral", () => {
    assert.equal(rows[1].XLogP, 1.2);
    assert.equal(rows[1].TPSA, 63.6);
    assert.equal(rows[1].Charge, 0);
    assert.equal(rows[1].HBondDonorCount, 1);
  });
  await t.step("answers the new SMILES names from the old ones", () => {
    assert.equal(rows[1].SMILES, "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert.equal(rows[1].ConnectivitySMILES, "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert.equal(rows[0].CanonicalSMILES, "C1=CC(=C(C=C1Cl)O)OC2=C(C=C(C=C2)Cl)Cl");
    assert.equal(rows[0].IsomericSMILES, "C1=CC(=C(C=C1Cl)O)OC2=C(C=C(C=C2)Cl)Cl");
  });
  await t.step("returns only the requested properties", () => {
    assert.equal(rows[1].InChIKey, undefined);
    assert.equal(Object.hasOwn(rows[1], "Fingerprint2D"), false);
  });
});

Deno.test("parsePropertyTable reads a 2025 PropertyTable (SMILES/ConnectivitySMILES) with the same types", () => {
  const text = pubchemFixture("built__property_cids_2244_3672_2025_names.json");
  const rows = parsePropertyTable(text, URL, ["MolecularWeight", "IsomericSMILES", "CanonicalSMILES", "Title"]);
  assert.deepEqual(rows[1], {
    CID: 3672,
    MolecularWeight: 206.28,
    IsomericSMILES: "CC(C)CC1=CC=C(C=C1)C(C)C(=O)O",
    CanonicalSMILES: "CC(C)CC1=CC=C(C=C1)C(C)C(=O)O",
    Title: "Ibuprofen",
  });
});

Deno.test("parsePropertyTable reads a single-property table", () => {
  const rows = parsePropertyTable(pubchemFixture("metmashr__property_inchikey_C00267.json"), URL, ["InChIKey"]);
  assert.deepEqual(rows, [{ CID: 79025, InChIKey: "WQZGKKKJIJFFOK-DVKNGEFBSA-N" }]);
});

Deno.test("parsePropertyTable rejects a body without a PropertyTable as an upstream error", () => {
  assert.throws(
    () => parsePropertyTable(pubchemFixture("metmashr__identifierlist_name_C00267.json"), URL, ["InChIKey"]),
    (e) => e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /PropertyTable/.test(e.message),
  );
  assert.throws(() => parsePropertyTable("<html>busy</html>", URL, ["InChIKey"]), ToolError);
});

Deno.test("upstreamPropertyNames sends the current names once, in a stable order", () => {
  assert.deepEqual(upstreamPropertyNames(["XLogP", "CanonicalSMILES", "IsomericSMILES", "SMILES", "MolecularWeight"]), [
    "MolecularWeight",
    "SMILES",
    "ConnectivitySMILES",
    "XLogP",
  ]);
});
