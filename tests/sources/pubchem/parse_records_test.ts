import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { parseAssaySummary, parseSubstanceRecord } from "../../../src/sources/pubchem/parse_records.ts";
import { mergeTargets } from "../../../src/sources/pubchem/records.ts";
import { pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/substance/sid/4594/JSON";

Deno.test("parseSubstanceRecord reads source, synonyms and standardized CIDs of a PC_Substances record", () => {
  const record = parseSubstanceRecord(pubchemFixture("built__substance_sid_4594.json"), URL);
  assert.equal(record.sid, 4594);
  assert.equal(record.sourceName, "KEGG");
  assert.equal(record.sourceId, "C01405");
  assert.deepEqual(record.standardizedCids, [2244]);
  assert.ok(record.synonyms.includes("Aspirin"));
});

Deno.test("parseSubstanceRecord refuses a body that is not a substance record", () => {
  assert.throws(
    () => parseSubstanceRecord(pubchemFixture("built__identifierlist_cid_2244.json"), URL),
    (e) => e instanceof ToolError && e.code === "UPSTREAM_ERROR",
  );
});

Deno.test("parseAssaySummary reads name, joined description, source and counts", () => {
  const summary = parseAssaySummary(pubchemFixture("built__assay_summary_aid_1851.json"), URL, 1851);
  assert.equal(summary.aid, 1851);
  assert.equal(summary.name, "Cytochrome panel assay with activity outcomes");
  assert.equal(summary.sourceName, "NCGC");
  assert.equal(summary.method, "confirmatory");
  assert.equal(summary.description.split("\n").length, 2);
  assert.equal(summary.numSids, 17143);
  assert.equal(summary.numActive, 10170);
  assert.equal(summary.numCids, 16143);
  assert.deepEqual(summary.targets[0], { name: "cytochrome P450 1A2", accession: "P05177" });
});

Deno.test("mergeTargets pairs gene ids and symbols only when the lists line up", async (t) => {
  const summary = parseAssaySummary(pubchemFixture("built__assay_summary_aid_1851.json"), URL, 1851).targets;
  await t.step("aligned lists give every target its gene and keep the accession", () => {
    const merged = mergeTargets(summary, {
      proteinNames: summary.map((s) => s.name),
      geneIds: [1544, 1559, 1557, 1565, 1576],
      geneSymbols: ["CYP1A2", "CYP2C9", "CYP2C19", "CYP2D6", "CYP3A4"],
    });
    assert.deepEqual(merged[4], {
      name: "cytochrome P450 3A4",
      accession: "P08684",
      geneId: 1576,
      geneSymbol: "CYP3A4",
    });
  });
  await t.step("misaligned lists leave the summary's targets as they are", () => {
    const merged = mergeTargets(summary, { proteinNames: ["a", "b"], geneIds: [1], geneSymbols: [] });
    assert.deepEqual(merged, summary);
  });
});
