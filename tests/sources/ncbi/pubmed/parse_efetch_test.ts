import assert from "node:assert/strict";
import { ToolError, UpstreamError } from "../../../../src/core/errors.ts";
import { parseEFetchPubMed } from "../../../../src/sources/ncbi/pubmed/parse_efetch.ts";
import { isRetracted, type PubMedArticle } from "../../../../src/sources/ncbi/pubmed/types.ts";
import { fixture } from "../../../helpers/runtime.ts";
import { parseFixture, pubmedXmlFixtures } from "./fixtures.ts";

/** Records in a body: PubmedArticle/PubmedBookArticle elements, or bare MedlineCitations in a baseline file. */
function recordCount(xml: string): number {
  const wrapped = xml.match(/<(?:PubmedArticle|PubmedBookArticle)>/g)?.length ?? 0;
  return wrapped || (xml.match(/<MedlineCitation [^>]*>/g)?.length ?? 0);
}
const LEFTOVER_MARKUP = /<\/?(?:i|b|u|sup|sub|mml:\w+)>|\[object Object\]/;

function assertCoreFields(a: PubMedArticle, file: string): void {
  const where = `${file} PMID ${a.pmid}`;
  assert.match(a.pmid, /^\d+$/, where);
  assert.equal(typeof a.title, "string", where);
  assert.ok(a.title.length > 0, `${where}: empty title`);
  assert.doesNotMatch(a.title, LEFTOVER_MARKUP, where);
  if (a.abstractText !== undefined) {
    assert.ok(a.abstractText.length > 0, where);
    assert.doesNotMatch(a.abstractText, LEFTOVER_MARKUP, where);
  }
  for (const author of a.authors) {
    assert.ok(author.lastName || author.collectiveName, `${where}: author without a name`);
    for (const value of Object.values(author)) assert.equal(typeof value, "string", where);
  }
  const date = a.journalInfo.publicationDate;
  assert.ok(date.year || date.medlineDate, `${where}: no publication date`);
  if (date.year) assert.match(date.year, /^\d{4}$/, where);
  if (date.month) assert.match(date.month, /^(0[1-9]|1[0-2])$/, where);
  if (date.day) assert.match(date.day, /^(0[1-9]|[12]\d|3[01])$/, where);
  for (const key of ["volume", "issue", "pages", "issn"] as const) {
    const value = a.journalInfo[key];
    if (value !== undefined) assert.equal(typeof value, "string", `${where}: ${key}`);
  }
  assert.ok(a.journalInfo.title, `${where}: no journal/book title`);
  assert.ok(Array.isArray(a.publicationTypes) && Array.isArray(a.keywords) && Array.isArray(a.meshTerms), where);
  for (const m of a.meshTerms) assert.ok(m.descriptorName && typeof m.isMajorTopic === "boolean", where);
  if (a.doi) assert.match(a.doi, /^10\.\d{4,}\//, where);
  if (a.pmcId) assert.match(a.pmcId, /^PMC\d+$/, where);
}

Deno.test("every recorded PubMed EFetch file parses, one record per article, with its core fields", async (t) => {
  const files = pubmedXmlFixtures();
  assert.ok(files.length >= 30, "the recorded PubMed corpus is in fixtures/ncbi/pubmed");
  let total = 0;
  for (const file of files) {
    await t.step(file, () => {
      const articles = parseFixture(file);
      const expected = recordCount(fixture(`ncbi/pubmed/${file}`));
      assert.equal(articles.length, expected, `${file}: record count`);
      for (const a of articles) assertCoreFields(a, file);
      total += articles.length;
    });
  }
  assert.equal(total, 604 + 33 + 3, "the baseline's 604 citations, 33 recorded EFetch records and 3 built ones");
});

Deno.test("the MEDLINE baseline file parses all 604 citations, with and without abstracts", () => {
  const articles = parseFixture("pubmedparser__medline16n0902.xml");
  assert.equal(articles.length, 604);
  assert.equal(articles.filter((a) => a.abstractText === undefined).length, 78);
  assert.equal(articles.filter((a) => a.journalInfo.publicationDate.medlineDate).length, 62);
  assert.equal(new Set(articles.map((a) => a.pmid)).size, 604);
});

Deno.test("parseEFetchPubMed turns an <ERROR> body into a ToolError with NCBI's message", () => {
  assert.throws(
    () => parseEFetchPubMed(fixture("ncbi/eutils/pubmedly__efetch_empty_id_error.xml"), "u"),
    (e: unknown) =>
      e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /Supplied id parameter is empty/.test(e.message),
  );
});

Deno.test("parseEFetchPubMed returns no records for an empty PubmedArticleSet", () => {
  assert.deepEqual(parseEFetchPubMed('<?xml version="1.0" ?>\n<PubmedArticleSet>\n</PubmedArticleSet>\n', "u"), []);
});

Deno.test("parseEFetchPubMed rejects a body that is not XML as an upstream parse error", () => {
  assert.throws(
    () => parseEFetchPubMed("Rate exceeded.", "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi"),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse" && /not XML/.test(e.message),
  );
});

Deno.test("parseEFetchPubMed rejects XML of another kind instead of returning nothing", () => {
  assert.throws(
    () => parseEFetchPubMed(fixture("ncbi/eutils/biopython__esearch1.xml"), "u"),
    (e: unknown) => e instanceof ToolError && /without a PubmedArticleSet/.test(e.message),
  );
});

Deno.test("a retracted article carries PubMed's notice (RetractionIn) and the Retracted Publication type", () => {
  const [a] = parseFixture("built__efetch_retracted_9500320.xml");
  assert.deepEqual(a.retractedIn, [{
    refSource: "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4.",
    pmid: "20137807",
  }]);
  assert.ok(a.publicationTypes.includes("Retracted Publication"));
  assert.ok(isRetracted(a));
});

Deno.test("a record without retraction signals has no retractedIn and is not flagged", () => {
  const [a] = parseFixture("metapub__34843274.xml");
  assert.equal(a.retractedIn, undefined);
  assert.equal(isRetracted(a), false);
});
