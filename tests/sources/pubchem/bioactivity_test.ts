import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { condense, fetchBioactivity } from "../../../src/sources/pubchem/bioactivity.ts";
import { parseAssaySummaryTable, parseGeneSummaries } from "../../../src/sources/pubchem/parse_assaysummary.ts";
import { fakeContext, fakeUpstream, on, pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/2244/assaysummary/JSON";

Deno.test("parseAssaySummaryTable reads rows by column name, empty cells as absent", () => {
  const rows = parseAssaySummaryTable(pubchemFixture("built__assaysummary_cid_2244.json"), URL);
  assert.equal(rows.length, 21);
  assert.deepEqual(rows[0], {
    aid: 1000,
    sid: 103164874,
    outcome: "active",
    targetAccession: "P23219",
    targetGeneId: 5742,
    activityValue: 1.7,
    activityName: "IC50",
    assayName: "Inhibition of human COX-1 (PTGS1) enzyme activity",
    assayType: "Confirmatory",
    pubmedId: 9997,
  });
  assert.deepEqual(rows.find((r) => r.aid === 1032), {
    aid: 1032,
    sid: 26747209,
    outcome: "unspecified",
    assayName: "NCI In Vivo Anticancer Drug Screen. Data for tumor model L1210 Leukemia",
    assayType: "Other",
  });
});

Deno.test("parseAssaySummaryTable takes numeric cells, reordered columns and the old Probe outcome", () => {
  const body = JSON.stringify({
    Table: {
      Columns: { Column: ["Activity Outcome", "CID", "AID", "Target GeneID"] },
      Row: [{ Cell: ["Probe", 2244, 588342, 5743] }, { Cell: ["Inactive", 2244, "", ""] }, {
        Cell: ["Weird", 2244, 7],
      }],
    },
  });
  assert.deepEqual(parseAssaySummaryTable(body, URL), [
    { aid: 588342, outcome: "active", targetGeneId: 5743 },
    { aid: 7, outcome: "unspecified" },
  ]);
});

Deno.test("parseAssaySummaryTable refuses a body without the table", () => {
  assert.throws(() => parseAssaySummaryTable('{"InformationList":{}}', URL), ToolError);
  assert.throws(() => parseAssaySummaryTable('{"Table":{"Columns":{"Column":["SID"]}}}', URL), ToolError);
});

Deno.test("condense: one outcome per assay, active first, targets ranked by active assays", () => {
  const result = condense(parseAssaySummaryTable(pubchemFixture("built__assaysummary_cid_2244.json"), URL));
  assert.deepEqual(result.counts, { active: 6, inactive: 7, inconclusive: 2, unspecified: 1 });
  assert.equal(result.assays.length, 16);
  assert.deepEqual(result.assays.slice(0, 6).map((a) => a.aid), [1000, 1001, 1003, 1010, 1020, 1053]);
  const aid1000 = result.assays[0];
  assert.equal(aid1000.outcome, "active", "one active sample makes the assay active");
  assert.equal(aid1000.activityValue, 1.7);
  const panel = result.assays.find((a) => a.aid === 1851)!;
  assert.equal(panel.outcome, "inactive");
  assert.equal(panel.targetGeneId, undefined, "a panel assay names no single target");
  assert.deepEqual(result.topTargets.slice(0, 4), [
    { geneId: 5742, accession: "P23219", activeAssays: 3, testedAssays: 4 },
    { geneId: 5743, accession: "P35354", activeAssays: 1, testedAssays: 2 },
    { geneId: 3551, accession: "O14920", activeAssays: 1, testedAssays: 1 },
    { geneId: 1544, accession: "P05177", activeAssays: 0, testedAssays: 1 },
  ]);
  assert.equal(result.topTargets.length, 9);
  assert.deepEqual(condense([]), {
    counts: { active: 0, inactive: 0, inconclusive: 0, unspecified: 0 },
    assays: [],
    topTargets: [],
  });
});

Deno.test("fetchBioactivity names the top targets from one gene summary request", async () => {
  const upstream = fakeUpstream(
    on("/pug/compound/cid/2244/assaysummary/JSON", "built__assaysummary_cid_2244.json"),
    (req) =>
      req.path?.startsWith("/pug/gene/geneid/")
        ? { body: pubchemFixture("built__gene_summary_aspirin_targets.json") }
        : undefined,
  );
  const result = await fetchBioactivity(fakeContext(upstream), 2244);
  assert.deepEqual(upstream.requests.map((r) => r.path), [
    "/pug/compound/cid/2244/assaysummary/JSON",
    "/pug/gene/geneid/5742,5743,3551,1544,1557,1559,1565,1576,7157/summary/JSON",
  ]);
  assert.equal(result.topTargets[0].symbol, "PTGS1");
  assert.equal(result.topTargets[0].name, "prostaglandin-endoperoxide synthase 1");
});

Deno.test("fetchBioactivity: genes PubChem does not know stay unnamed; an unknown CID is ENTITY_NOT_FOUND", async () => {
  const upstream = fakeUpstream(
    on("/pug/compound/cid/2244/assaysummary/JSON", "built__assaysummary_cid_2244.json"),
    (req) =>
      req.path?.startsWith("/pug/gene/")
        ? { status: 404, body: pubchemFixture("metmashr__fault_name_no_hit_cids.json") }
        : undefined,
    on("/pug/compound/cid/1/assaysummary/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
  );
  const result = await fetchBioactivity(fakeContext(upstream), 2244);
  assert.equal(result.topTargets[0].symbol, undefined);
  assert.equal(result.topTargets[0].geneId, 5742);
  await assert.rejects(
    () => fetchBioactivity(fakeContext(upstream), 1),
    (e) => e instanceof ToolError && e.code === "ENTITY_NOT_FOUND",
  );
});

Deno.test("parseGeneSummaries reads symbol and name per gene id", () => {
  const genes = parseGeneSummaries(pubchemFixture("built__gene_summary_aspirin_targets.json"), URL);
  assert.equal(genes.length, 9);
  assert.deepEqual(genes[0], { geneId: 5742, symbol: "PTGS1", name: "prostaglandin-endoperoxide synthase 1" });
  assert.throws(() => parseGeneSummaries("{}", URL), ToolError);
});
