import assert from "node:assert/strict";
import { ToolError, UpstreamError } from "../../../src/core/errors.ts";
import { markupText, parseSearch } from "../../../src/sources/europepmc/parse_search.ts";
import { parsePmcArticles } from "../../../src/sources/pmc/parse_jats.ts";
import { fixture } from "../../helpers/runtime.ts";

const DIR = "europepmc";

Deno.test("parseSearch reads a recorded core page: ids, authors, venue, abstract, cursor", () => {
  const page = parseSearch(fixture(`${DIR}/pyeuropepmc__search_cancer_core.json`), "u");
  assert.equal(page.hitCount, 5059039);
  assert.equal(page.nextCursor, "AoIIP4ZawSg1MzEyODI1MA==");
  assert.equal(page.records.length, 25);
  const first = page.records[0];
  assert.deepEqual([first.source, first.id, first.pmid, first.doi], [
    "MED",
    "39709209",
    "39709209",
    "10.1016/s0140-6736(24)02600-x",
  ]);
  assert.equal(
    first.title,
    "Abscopal response in a patient with fibrolamellar hepatocellular carcinoma following radiotherapy.",
  );
  assert.deepEqual(first.authors, ["Schoenfeld JD", "Haas-Kogan DA", "O'Neill AF"]);
  assert.equal(first.venue, "Lancet (London, England)");
  assert.equal(first.date, "2025-12-01");
  assert.deepEqual(first.pubTypes, ["Journal Article"]);
  assert.equal(first.preprint, false);
  assert.equal(first.retracted, undefined);
  assert.ok(page.records.some((r) => r.abstract && r.abstract.length > 200), "core records carry abstracts");
  assert.ok(page.records.every((r) => !/<[a-z]/i.test(r.abstract ?? "")), "abstract markup becomes text");
});

Deno.test("parseSearch marks preprints and names their server (recorded lite page of 1,000)", () => {
  const page = parseSearch(fixture(`${DIR}/pyeuropepmc__search_cancer_lite_1000.json`), "u");
  assert.equal(page.records.length, 1000);
  const preprints = page.records.filter((r) => r.preprint);
  assert.equal(preprints.length, 24);
  assert.ok(preprints.every((r) => r.source === "PPR"));
  const first = preprints[0];
  assert.deepEqual([first.id, first.doi, first.venue, first.date], [
    "PPR1036674",
    "10.1101/2025.06.13.25329599",
    "medRxiv",
    "2025-06-16",
  ]);
  assert.deepEqual(first.fullTextIds, ["PPR1036674"]);
  const pmc = page.records.find((r) => r.source === "PMC")!;
  assert.equal(pmc.pmcid, pmc.id);
  assert.deepEqual(pmc.pubTypes, ["review-article", "review", "journal article"]);
  assert.equal(pmc.venue, "Oncology Letters");
});

Deno.test("parseSearch reads an Agricola record and an empty answer", () => {
  const agr = parseSearch(fixture(`${DIR}/pyeuropepmc__search_immunotherapy_agricola.json`), "u").records
    .find((r) => r.source === "AGR")!;
  assert.equal(agr.id, "IND608974682");
  assert.equal(agr.venue, "Cell. Mol. Life Sci..");
  assert.equal(agr.pmid, undefined);
  const empty = parseSearch(fixture(`${DIR}/pyeuropepmc__search_no_results.json`), "u");
  assert.deepEqual([empty.hitCount, empty.records, empty.nextCursor], [0, [], undefined]);
});

Deno.test("parseSearch flags a retracted publication with its retraction notice", () => {
  const cassette = JSON.parse(fixture(`${DIR}/evidencemcp__search_core_EXT_ID_39466770_retracted.cassette.json`));
  const [record] = parseSearch(cassette.body, "u").records;
  assert.equal(record.pmcid, "PMC11516011");
  assert.deepEqual(record.retracted, {
    notice: "MED:41926417 PLoS One. 2026 Apr 2;21(4):e0346306. doi: 10.1371/journal.pone.0346306.",
  });
});

Deno.test("parseSearch turns errCode bodies into INVALID_INPUT and other bodies into parse errors", () => {
  const body = '{"errCode":404,"errMsg":"Invalid page size provided. Valid size is between 1 and 1000"}';
  assert.throws(() => parseSearch(body, "u"), (e) => e instanceof ToolError && e.code === "INVALID_INPUT");
  assert.throws(() => parseSearch("<html>maintenance</html>", "u"), (e) => e instanceof UpstreamError);
  assert.throws(() => parseSearch('{"version":"6.9"}', "u"), (e) => e instanceof UpstreamError);
});

Deno.test("markupText keeps the words of HTML titles and abstracts", () => {
  assert.equal(markupText("A <i>ChemRxiv</i> &amp; more<h4>Methods</h4>We did"), "A ChemRxiv & more\nMethods\nWe did");
});

Deno.test("a recorded Europe PMC fullTextXML reads through the PMC JATS parser", () => {
  const [a] = parsePmcArticles(fixture(`${DIR}/pyeuropepmc__PMC3258128_fullTextXML.xml`), "u");
  assert.equal(a.pmcid, "PMC3258128");
  assert.equal(a.doi, "10.1093/nar/gkr715");
  assert.equal(a.journal, "Nucleic Acids Research");
  assert.equal(a.hasBody, true);
  assert.ok(a.sections.length >= 3, a.sections.map((s) => s.heading).join(" | "));
});
