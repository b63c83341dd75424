import assert from "node:assert/strict";
import {
  isoDate,
  parseAssayTargets,
  parseDates,
  parseSynonyms,
  parseXrefs,
} from "../../../src/sources/pubchem/parse_information.ts";
import { pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/2244/synonyms/JSON";

Deno.test("parseSynonyms reads a recorded synonym list in PubChem's order", () => {
  const synonyms = parseSynonyms(pubchemFixture("webchem__synonyms_name_aspirin.json"), URL, 2244);
  assert.equal(synonyms[0], "aspirin");
  assert.equal(synonyms[1], "ACETYLSALICYLIC ACID");
  assert.ok(synonyms.includes("50-78-2"));
  assert.ok(synonyms.length > 400);
});

Deno.test("parseXrefs picks the requested CID out of a multi-CID recording and lists every requested type", () => {
  const xrefs = parseXrefs(pubchemFixture("pubchemcrawler__xrefs_RN_cid135398570.json"), URL, 2244, ["RN", "PubMedID"]);
  assert.equal(xrefs.RN.length, 8);
  assert.ok(xrefs.RN.includes("50-78-2"));
  assert.deepEqual(xrefs.PubMedID, []);
  const other = parseXrefs(pubchemFixture("pubchemcrawler__xrefs_RN_cid135398570.json"), URL, 135398570, ["RN"]);
  assert.deepEqual(other.RN, ["231-641-6", "40732-48-7", "7665-99-8"]);
});

Deno.test("parseXrefs keeps PubMed ids numeric and patent ids as strings", () => {
  const xrefs = parseXrefs(pubchemFixture("built__xrefs_cid_2244.json"), URL, 2244, ["PubMedID", "PatentID"]);
  assert.deepEqual(xrefs.PubMedID, [9997, 11748933, 12091962, 27797938]);
  assert.deepEqual(xrefs.PatentID, ["US-4985252-A", "EP-0181984-A1"]);
});

Deno.test("parseDates turns PubChem date records into ISO dates", () => {
  assert.deepEqual(parseDates(pubchemFixture("built__substance_dates_sid_4594.json"), URL, 4594), {
    deposition: "2005-03-26",
    modification: "2025-01-18",
  });
});

Deno.test("isoDate accepts the date shapes PubChem uses and rejects others", () => {
  assert.equal(isoDate({ Year: 2004, Month: 9, Day: 16 }), "2004-09-16");
  assert.equal(isoDate(20090717), "2009-07-17");
  assert.equal(isoDate("2009/7/1"), "2009-07-01");
  assert.equal(isoDate("2009-07-01T00:00:00"), "2009-07-01");
  assert.equal(isoDate({ Year: 2004 }), undefined);
  assert.equal(isoDate("July 2009"), undefined);
  assert.equal(isoDate(2009), undefined);
});

Deno.test("parseAssayTargets reads parallel protein, gene id and symbol lists", () => {
  const lists = parseAssayTargets(pubchemFixture("built__assay_targets_aid_1851.json"), URL, 1851);
  assert.equal(lists.proteinNames.length, 5);
  assert.deepEqual(lists.geneIds, [1544, 1559, 1557, 1565, 1576]);
  assert.equal(lists.geneSymbols[4], "CYP3A4");
});

Deno.test("parseXrefs refuses a type whose identifiers are not a list, instead of answering none", () => {
  const body = '{"InformationList":{"Information":[{"CID":2244,"RN":"50-78-2"}]}}';
  assert.throws(() => parseXrefs(body, URL, 2244, ["RN"]), /cross-references whose RN is not a list/);
  const good = '{"InformationList":{"Information":[{"CID":2244,"RN":["50-78-2"],"PubMedID":[9997]}]}}';
  assert.deepEqual(parseXrefs(good, URL, 2244, ["RN", "PubMedID"]), { RN: ["50-78-2"], PubMedID: [9997] });
});
