import assert from "node:assert/strict";
import { UpstreamError } from "../../../src/core/errors.ts";
import { parseArticleId } from "../../../src/sources/idconv/ids.ts";
import { parseIdconv } from "../../../src/sources/idconv/parse_idconv.ts";
import { fixture } from "../../helpers/runtime.ts";

Deno.test("parseIdconv reads converted records and per-id errors, PMIDs as strings", () => {
  const records = parseIdconv(fixture("ncbi/idconv/built__idconv_pmids.json"), "u");
  assert.equal(records.length, 8);
  assert.deepEqual(records[0], {
    requestedId: "22416237",
    pmid: "22416237",
    pmcid: "PMC3299399",
    doi: "10.3389/fpsyt.2012.00018",
  });
  assert.equal(records[2].mid, "NIHMS857349");
  assert.deepEqual(records[6], { requestedId: "36987902", pmid: "36987902", error: "Identifier not found in PMC" });
  assert.deepEqual(records[7], { requestedId: "99999999999", error: "invalid article id" });
});

Deno.test("parseIdconv reads the older layout (string ids, no requested-id) and refuses non-answers", () => {
  const old = '{"status":"ok","responseDate":"2013-07-26 18:05:28","request":"ids=PMC3531190;format=json",' +
    '"records":[{"pmcid":"PMC3531190","pmid":"23193287","doi":"10.1093/nar/gks1195",' +
    '"versions":[{"pmcid":"PMC3531190.1","current":"true"}]}]}';
  assert.deepEqual(parseIdconv(old, "u"), [{
    requestedId: "PMC3531190",
    pmid: "23193287",
    pmcid: "PMC3531190",
    doi: "10.1093/nar/gks1195",
  }]);
  assert.throws(() => parseIdconv("<html>busy</html>", "u"), UpstreamError);
  assert.throws(
    () => parseIdconv('{"status":"error","message":"Too many ids: at most 200"}', "u"),
    /an error: Too many ids: at most 200/,
  );
});

Deno.test("parseArticleId recognises PMIDs, PMCIDs and DOIs in the forms people paste", () => {
  assert.deepEqual(parseArticleId("PMID: 22416237"), { type: "pmid", id: "22416237" });
  assert.deepEqual(parseArticleId("0022416237"), { type: "pmid", id: "22416237" });
  assert.deepEqual(parseArticleId("pmc3299399.2"), { type: "pmcid", id: "PMC3299399" });
  assert.deepEqual(parseArticleId("https://pmc.ncbi.nlm.nih.gov/articles/PMC3299399/"), {
    type: "pmcid",
    id: "PMC3299399",
  });
  assert.deepEqual(parseArticleId("https://doi.org/10.1093/nar/gks1195"), { type: "doi", id: "10.1093/nar/gks1195" });
  assert.deepEqual(parseArticleId("doi:10.1016/S1053-8119(03)00332-X"), {
    type: "doi",
    id: "10.1016/S1053-8119(03)00332-X",
  });
  for (const bad of ["", "0", "W2741809807", "2104.12255", "PMC", "10.12/x", "1234567890"]) {
    assert.equal(parseArticleId(bad), undefined, bad);
  }
});
