/**
 * zod checks of every parsed PubChem payload (shapes.ts): the recorded and built answers all match, and an
 * answer with one record changed (as PubChem changes formats quietly) keeps that record, read as far as it
 * can be, with a warning naming it and what differs; nothing is dropped silently and nothing throws.
 * The changed answers are made in each test from the named fixture (one field edited): BUILT variants.
 */
import assert from "node:assert/strict";
import { parseAssaySummaryTable } from "../../../src/sources/pubchem/parse_assaysummary.ts";
import { parseGhs } from "../../../src/sources/pubchem/parse_ghs.ts";
import { parsePropertyTable } from "../../../src/sources/pubchem/parse_properties.ts";
import { parseAssaySummary, parseSubstanceRecord } from "../../../src/sources/pubchem/parse_records.ts";
import { COMPOUND_PROPERTIES } from "../../../src/sources/pubchem/types.ts";
import { pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/test";
// deno-lint-ignore no-explicit-any
type Json = any;
const edited = (name: string, edit: (doc: Json) => void) => {
  const doc = JSON.parse(pubchemFixture(name));
  edit(doc);
  return JSON.stringify(doc);
};

Deno.test("every recorded and built PubChem record matches its schema: no warnings", () => {
  for (const name of ["webchem__property_cid5564_all.json", "metmashr__property_inchikey_C00267.json"]) {
    const warnings: string[] = [];
    assert.ok(parsePropertyTable(pubchemFixture(name), URL, COMPOUND_PROPERTIES, warnings).length > 0);
    assert.deepEqual(warnings, [], name);
  }
  const rows: string[] = [];
  parseAssaySummaryTable(pubchemFixture("built__assaysummary_cid_2244.json"), URL, rows);
  assert.deepEqual(rows, []);
  assert.equal(parseSubstanceRecord(pubchemFixture("built__substance_sid_4594.json"), URL).warnings, undefined);
  assert.equal(parseAssaySummary(pubchemFixture("built__assay_summary_aid_1851.json"), URL, 1851).warnings, undefined);
  for (const name of ["built__pugview_ghs_cid176.json", "cheminfo__pugview_penicillin.json"]) {
    assert.equal(parseGhs(pubchemFixture(name), URL, 176).warnings, undefined, name);
  }
});

Deno.test("a property row in another shape is kept with a warning; a row without a CID is named, not lost", () => {
  // The recorded webchem answer (CIDs 5564 and 2244), MolecularWeight of 5564 an object, the CID of 2244 gone.
  const body = edited("webchem__property_cid5564_all.json", (doc) => {
    doc.PropertyTable.Properties[0].MolecularWeight = { value: 289.5, unit: "g/mol" };
    delete doc.PropertyTable.Properties[1].CID;
  });
  const warnings: string[] = [];
  const rows = parsePropertyTable(body, URL, ["MolecularFormula", "MolecularWeight", "InChIKey"], warnings);
  assert.deepEqual(rows, [{ CID: 5564, MolecularFormula: "C12H7Cl3O2", InChIKey: "XEFQLINVKFYRCS-UHFFFAOYSA-N" }]);
  assert.equal(warnings.length, 2);
  assert.match(
    warnings[0],
    /^PubChem property row 1 \(CID 5564\) does not match the expected shape \(MolecularWeight: /,
  );
  assert.match(
    warnings[1],
    /^PubChem property row 2 does not match the expected shape \(CID: .*kept as read: \{"Molecu/,
  );
  assert.match(warnings[1], /BSYNRYMUTXBXSQ-UHFFFAOYSA-N/, "aspirin's row is in the warning, as sent");
});

Deno.test("an assay-summary row with an odd cell is still counted, with a warning", () => {
  const body = edited("built__assaysummary_cid_2244.json", (doc) => {
    doc.Table.Row[0].Cell[7] = { value: 1.7, unit: "uM" };
  });
  const warnings: string[] = [];
  const rows = parseAssaySummaryTable(body, URL, warnings);
  assert.equal(rows.length, 21, "no row dropped");
  assert.deepEqual([rows[0].aid, rows[0].outcome, rows[0].activityValue], [1000, "active", undefined]);
  assert.match(warnings[0], /^PubChem assay-summary row 1 does not match the expected shape \(Cell\.7: /);
});

Deno.test("a substance, an assay record and a GHS item in another shape are read with a warning", () => {
  const substance = parseSubstanceRecord(
    edited("built__substance_sid_4594.json", (doc) => (doc.PC_Substances[0].synonyms = "aspirin")),
    URL,
  );
  assert.equal(substance.sid, 4594);
  assert.match(substance.warnings![0], /^PubChem substance record does not match the expected shape \(synonyms: /);

  const assay = parseAssaySummary(
    edited("built__assay_summary_aid_1851.json", (doc) => (doc.AssaySummaries.AssaySummary[0].SIDCountAll = "many")),
    URL,
    1851,
  );
  assert.equal(assay.aid, 1851);
  assert.equal(assay.numSids, 0, "the unreadable count is absent, the record kept");
  assert.match(assay.warnings![0], /^PubChem assay summary of AID 1851 does not match .*SIDCountAll/);

  const ghs = parseGhs(
    edited("built__pugview_ghs_cid176.json", (doc) => {
      const walk = (node: Json): Json[] =>
        (node.Section ?? []).flatMap((s: Json) => [...(s.TOCHeading === "GHS Classification" ? [s] : []), ...walk(s)]);
      walk(doc.Record)[0].Information.push("H226: Flammable liquid and vapor");
    }),
    URL,
    176,
  );
  assert.ok(ghs.classifications.length > 0, "the other items still read");
  assert.match(ghs.warnings![0], /^PubChem GHS item \d+ does not match .*kept as read: "H226: Flammable liquid/);
});
