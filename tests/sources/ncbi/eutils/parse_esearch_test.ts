import assert from "node:assert/strict";
import { parseESearch } from "../../../../src/sources/ncbi/eutils/parse_esearch.ts";
import { parseELink } from "../../../../src/sources/ncbi/eutils/parse_elink.ts";
import { ToolError } from "../../../../src/core/errors.ts";
import { UpstreamError } from "../../../../src/core/errors.ts";
import { fixture } from "../../../helpers/runtime.ts";

const URL_ = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi";

Deno.test("parseESearch keeps ids as strings, including ids above 2^31", () => {
  const r = parseESearch(fixture("ncbi/eutils/biopython__esearch7.xml"), URL_);
  assert.equal(r.count, 330);
  assert.equal(r.ids.length, 20);
  assert.equal(r.ids[0], "3108048616");
  assert.equal(r.queryTranslation, "000200020[molecular weight]");
  assert.deepEqual(r.warnings, []);
});

Deno.test("parseESearch surfaces ErrorList entries as warnings instead of dropping them", () => {
  const r = parseESearch(fixture("ncbi/eutils/eutilsjson__esearch.error.xml"), URL_);
  assert.equal(r.count, 5163);
  assert.deepEqual(r.warnings, ["PhraseNotFound: fleegle[MeSH Terms]"]);
});

Deno.test("parseESearch turns a fatal <ERROR> into INVALID_INPUT", () => {
  assert.throws(
    () => parseESearch(fixture("ncbi/eutils/eutilsjson__esearch.baderror.xml"), URL_),
    (e: unknown) => e instanceof ToolError && e.code === "INVALID_INPUT" && /Invalid db name/.test(e.message),
  );
});

Deno.test("parseESearch reads a count-only answer", () => {
  const r = parseESearch(fixture("ncbi/eutils/hawc__esearch_rettype_count.xml"), URL_);
  assert.equal(r.count, 6);
  assert.deepEqual(r.ids, []);
});

Deno.test("parseESearch rejects a body that is not XML with a parse error", () => {
  assert.throws(
    () => parseESearch("Rate exceeded.", URL_),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse",
  );
});

Deno.test("parseELink keeps neighbor scores and link order", () => {
  const [set] = parseELink(fixture("ncbi/eutils/bioeutilities__elink_scores.xml"), URL_);
  assert.equal(set.dbFrom, "protein");
  const links = set.links["protein_protein"];
  assert.deepEqual(links.slice(0, 2), [{ id: "15622530", score: 2147483647 }, { id: "15921743", score: 381 }]);
});

Deno.test("parseELink reads plain links without scores", () => {
  const [set] = parseELink(fixture("ncbi/eutils/biopython__elink1.xml"), URL_);
  assert.deepEqual(set.fromIds, ["9298984"]);
  assert.deepEqual(set.links["pubmed_pubmed"][1], { id: "8794856" });
});

Deno.test("a truncated NCBI body is a parse error, not a shorter answer", () => {
  const cut = "<eSearchResult><Count>12</Count><IdList><Id>672</Id>";
  assert.throws(
    () => parseESearch(cut, URL_),
    (e: unknown) =>
      e instanceof UpstreamError && /truncated/.test(e.message) &&
      /unclosed elements: eSearchResult, IdList/.test(e.message),
  );
  const [set] = parseELink(fixture("ncbi/eutils/biopython__elink1.xml"), URL_);
  assert.ok(set.links["pubmed_pubmed"].length > 0, "a complete body with a DOCTYPE still parses");
  assert.throws(() => parseELink(fixture("ncbi/eutils/biopython__elink1.xml").slice(0, 900), URL_), UpstreamError);
});

Deno.test("a PubMed EFetch body cut in half is a parse error, not fewer articles", async () => {
  const { parseEFetchPubMed } = await import("../../../../src/sources/ncbi/pubmed/parse_efetch.ts");
  const whole = fixture("ncbi/pubmed/biopython__pubmed2.xml");
  assert.throws(() => parseEFetchPubMed(whole.slice(0, whole.length / 2), URL_), UpstreamError);
});
