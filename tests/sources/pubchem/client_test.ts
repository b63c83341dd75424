import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { compoundImageUrl, TTL } from "../../../src/sources/pubchem/client.ts";
import { fetchProperties, fetchXrefs, lookupCids, PROPERTY_CHUNK } from "../../../src/sources/pubchem/compounds.ts";
import { fetchAssaySummary, fetchSubstance, searchAssaysByTarget } from "../../../src/sources/pubchem/records.ts";
import { type Answer, fakeContext, fakeUpstream, on, pubchemFixture } from "./fakes.ts";

const ids = (cids: number[]): Answer => ({ body: JSON.stringify({ IdentifierList: { CID: cids } }) });

Deno.test("lookupCids puts plain names in the path and everything else in a POST body", async (t) => {
  const upstream = fakeUpstream(() => ids([2244]));
  const ctx = fakeContext(upstream);
  await t.step("a plain name is a GET path segment", async () => {
    assert.deepEqual(await lookupCids(ctx, "name", "aspirin"), [2244]);
    const req = upstream.requests.at(-1)!;
    assert.equal(req.path, "/pug/compound/name/aspirin/cids/JSON");
    assert.equal(req.method, undefined);
    assert.equal(req.form, undefined);
    assert.equal(req.upstream, "pubchem");
    assert.equal(req.ttlMs, TTL.lookup);
  });
  await t.step("a name with a space, slash, + or #, or made only of dots, goes in the form body, intact", async () => {
    for (const name of ["acetylsalicylic acid", "2-(acetyloxy)benzoic acid/aspirin", "vitamin C+E #1", "..", "."]) {
      await lookupCids(ctx, "name", name);
      const req = upstream.requests.at(-1)!;
      assert.equal(req.path, "/pug/compound/name/cids/JSON");
      assert.equal(req.method, "POST");
      assert.deepEqual(req.form, { name });
    }
  });
  await t.step("a SMILES always goes in the form body, even a path-safe one", async () => {
    for (const smiles of ["C/C=C/C#N", "[NH4+]", "CCO"]) {
      await lookupCids(ctx, "smiles", smiles);
      const req = upstream.requests.at(-1)!;
      assert.equal(req.path, "/pug/compound/smiles/cids/JSON");
      assert.equal(req.method, "POST");
      assert.deepEqual(req.form, { smiles });
    }
  });
  await t.step("an InChIKey is a path segment", async () => {
    await lookupCids(ctx, "inchikey", "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
    assert.equal(upstream.requests.at(-1)!.path, "/pug/compound/inchikey/BSYNRYMUTXBXSQ-UHFFFAOYSA-N/cids/JSON");
  });
});

Deno.test("lookupCids reports a structure PubChem does not hold (CID 0) as ENTITY_NOT_FOUND", async () => {
  const ctx = fakeContext(
    fakeUpstream(on("/pug/compound/smiles/cids/JSON", "built__identifierlist_cid_0_no_match.json")),
  );
  await assert.rejects(
    () => lookupCids(ctx, "smiles", "C1CC1C1CC1C1CC1C1CC1"),
    (e) => e instanceof ToolError && e.code === "ENTITY_NOT_FOUND" && /similarity/.test(e.recoveryHint),
  );
});

Deno.test("fetchProperties batches CIDs: one GET for a few, POST chunks for many", async (t) => {
  await t.step("two CIDs share one GET request and the 2025 property names are sent", async () => {
    const upstream = fakeUpstream(() => ({ body: pubchemFixture("built__property_cids_2244_3672_2025_names.json") }));
    const batch = await fetchProperties(fakeContext(upstream), [2244, 3672], ["MolecularWeight", "CanonicalSMILES"]);
    assert.equal(upstream.requests.length, 1);
    assert.equal(
      upstream.requests[0].path,
      "/pug/compound/cid/2244,3672/property/MolecularWeight,ConnectivitySMILES/JSON",
    );
    assert.equal(upstream.requests[0].ttlMs, TTL.record);
    assert.deepEqual(batch.rows.map((r) => r.MolecularWeight), [180.16, 206.28]);
    assert.deepEqual(batch.notFound, []);
  });
  await t.step("450 CIDs become three POST requests of at most 200, with progress", async () => {
    const upstream = fakeUpstream((req) => {
      const cids = String(req.form?.cid).split(",").map(Number).filter((c) => c % 2 === 0);
      return {
        body: JSON.stringify({ PropertyTable: { Properties: cids.map((CID) => ({ CID, MolecularWeight: "1.5" })) } }),
      };
    });
    const ctx = fakeContext(upstream);
    const cids = Array.from({ length: 450 }, (_, i) => i + 1);
    const batch = await fetchProperties(ctx, cids, ["MolecularWeight"]);
    assert.equal(upstream.requests.length, 3);
    for (const req of upstream.requests) {
      assert.equal(req.method, "POST");
      assert.equal(req.path, "/pug/compound/cid/property/MolecularWeight/JSON");
    }
    assert.deepEqual(upstream.requests.map((r) => String(r.form?.cid).split(",").length), [
      PROPERTY_CHUNK,
      PROPERTY_CHUNK,
      50,
    ]);
    assert.equal(batch.rows.length, 450);
    assert.equal(batch.notFound.length, 225);
    assert.equal(batch.rows[1].MolecularWeight, 1.5);
    assert.deepEqual(ctx.progressEvents.map((p) => p.total), [3, 3, 3]);
  });
  await t.step("a chunk PubChem answers 404 reports its CIDs as not found, in request order", async () => {
    const upstream = fakeUpstream(
      on("/pug/compound/cid/999999999/property/MolecularFormula/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    );
    const batch = await fetchProperties(fakeContext(upstream), [999999999, 999999999], ["MolecularFormula"]);
    assert.deepEqual(batch, { rows: [{ CID: 999999999 }], notFound: [999999999], warnings: [] });
  });
  await t.step("a mixed answer keeps known CIDs and reports the rest", async () => {
    const upstream = fakeUpstream(() => ({ body: pubchemFixture("webchem__property_cid5564_MF_MW.json") }));
    const batch = await fetchProperties(fakeContext(upstream), [1, 5564], ["MolecularFormula"]);
    assert.deepEqual(batch.rows, [{ CID: 1 }, { CID: 5564, MolecularFormula: "C12H7Cl3O2" }]);
    assert.deepEqual(batch.notFound, [1]);
  });
});

Deno.test("fetchXrefs asks for all requested types in one request", async () => {
  const upstream = fakeUpstream(() => ({ body: pubchemFixture("built__xrefs_cid_2244.json") }));
  const xrefs = await fetchXrefs(fakeContext(upstream), 2244, ["PubMedID", "TaxonomyID"]);
  assert.equal(upstream.requests[0].path, "/pug/compound/cid/2244/xrefs/PubMedID,TaxonomyID/JSON");
  assert.deepEqual(xrefs, { PubMedID: [9997, 11748933, 12091962, 27797938], TaxonomyID: [] });
});

Deno.test("fetchSubstance makes two cached requests: the record and its dates", async () => {
  const upstream = fakeUpstream(
    on("/pug/substance/sid/4594/JSON", "built__substance_sid_4594.json"),
    on("/pug/substance/sid/4594/dates/JSON", "built__substance_dates_sid_4594.json"),
  );
  const record = await fetchSubstance(fakeContext(upstream), 4594);
  assert.equal(upstream.requests.length, 2);
  assert.deepEqual(upstream.requests[1].query, { dates_type: "deposition,modification" });
  assert.ok(upstream.requests.every((r) => r.ttlMs === TTL.record));
  assert.deepEqual(record.dates, { deposition: "2005-03-26", modification: "2025-01-18" });
  assert.deepEqual(record.standardizedCids, [2244]);
});

Deno.test("fetchAssaySummary adds gene ids from the targets operation, and copes without one", async (t) => {
  await t.step("with targets", async () => {
    const upstream = fakeUpstream(
      on("/pug/assay/aid/1851/summary/JSON", "built__assay_summary_aid_1851.json"),
      on("/pug/assay/aid/1851/targets/ProteinName,GeneID,GeneSymbol/JSON", "built__assay_targets_aid_1851.json"),
    );
    const summary = await fetchAssaySummary(fakeContext(upstream), 1851);
    assert.deepEqual(summary.targets[2], {
      name: "cytochrome P450 2C19",
      accession: "P33261",
      geneId: 1557,
      geneSymbol: "CYP2C19",
    });
  });
  await t.step("a 404 from the targets operation keeps the summary's targets", async () => {
    const upstream = fakeUpstream(
      on("/pug/assay/aid/1851/summary/JSON", "built__assay_summary_aid_1851.json"),
      on(
        "/pug/assay/aid/1851/targets/ProteinName,GeneID,GeneSymbol/JSON",
        "metmashr__fault_name_no_hit_cids.json",
        404,
      ),
    );
    const summary = await fetchAssaySummary(fakeContext(upstream), 1851);
    assert.deepEqual(summary.targets[0], { name: "cytochrome P450 1A2", accession: "P05177" });
  });
});

Deno.test("searchAssaysByTarget sends protein names with spaces as a POST body", async () => {
  const upstream = fakeUpstream(() => ({ body: pubchemFixture("built__assay_target_genesymbol_CYP3A4_aids.json") }));
  const ctx = fakeContext(upstream);
  await searchAssaysByTarget(ctx, "genesymbol", "CYP3A4");
  assert.equal(upstream.requests[0].path, "/pug/assay/target/genesymbol/CYP3A4/aids/JSON");
  assert.deepEqual(await searchAssaysByTarget(ctx, "proteinname", "cytochrome P450 3A4"), [884, 1851, 1911]);
  assert.equal(upstream.requests[1].path, "/pug/assay/target/proteinname/aids/JSON");
  assert.deepEqual(upstream.requests[1].form, { proteinname: "cytochrome P450 3A4" });
});

Deno.test("compoundImageUrl builds the PNG URL from the configured base without a request", () => {
  const upstream = fakeUpstream();
  assert.equal(
    compoundImageUrl({ upstream }, 2244, "small"),
    "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/2244/PNG?image_size=small",
  );
  assert.equal(upstream.requests.length, 0);
});
