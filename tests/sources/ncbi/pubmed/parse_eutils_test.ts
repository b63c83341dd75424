/** ESummary v2.0, EInfo and MEDLINE-text parsing on recorded bodies. */
import assert from "node:assert/strict";
import { ToolError } from "../../../../src/core/errors.ts";
import { parseEInfo } from "../../../../src/sources/ncbi/eutils/parse_einfo.ts";
import { parseESummaryPubMed } from "../../../../src/sources/ncbi/pubmed/parse_esummary.ts";
import { splitMedlineText } from "../../../../src/sources/ncbi/pubmed/parse_medline_text.ts";
import { fixture } from "../../../helpers/runtime.ts";

Deno.test("parseESummaryPubMed reads version 2.0 summaries with ISO dates and author names", () => {
  const [first, second] = parseESummaryPubMed(fixture("ncbi/eutils/eutilsjson__esummary.pubmed.xml"), "u");
  assert.deepEqual(first, {
    pmid: "5683731",
    title: "An assistive device for smoking.",
    authors: ["Goldberg MJ", "Davis LJ"],
    source: "Paraplegia",
    pubDate: "1968-08",
    doi: "10.1038/sc.1968.18",
  });
  assert.equal(second.pmid, "22144687");
  assert.equal(second.pubDate, "2012-01");
  assert.equal(second.epubDate, "2011-12-05");
  assert.equal(second.authors.length, 6);
});

Deno.test("parseESummaryPubMed keeps a per-id error instead of dropping the id", () => {
  const xml = '<eSummaryResult><DocumentSummarySet status="OK"><DocumentSummary uid="99999999">' +
    "<error>cannot get document summary</error></DocumentSummary></DocumentSummarySet></eSummaryResult>";
  assert.deepEqual(parseESummaryPubMed(xml, "u"), [
    { pmid: "99999999", title: "", authors: [], source: "", error: "cannot get document summary" },
  ]);
});

Deno.test("parseESummaryPubMed strips inline tags from titles but keeps a literal '<'", () => {
  const xml = '<eSummaryResult><DocumentSummarySet status="OK"><DocumentSummary uid="1">' +
    "<Title>&lt;i&gt;TP53&lt;/i&gt; in cells with p &lt; 0.05 &amp; more</Title></DocumentSummary>" +
    "</DocumentSummarySet></eSummaryResult>";
  assert.equal(parseESummaryPubMed(xml, "u")[0].title, "TP53 in cells with p < 0.05 & more");
});

Deno.test("parseESummaryPubMed turns a fatal <ERROR> into UPSTREAM_ERROR naming the cause", () => {
  assert.throws(
    () => parseESummaryPubMed(fixture("ncbi/eutils/biopython__esummary8.xml"), "u"),
    (e: unknown) =>
      e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /searchPubMedArticles/.test(e.recoveryHint),
  );
  assert.throws(
    () => parseESummaryPubMed(fixture("ncbi/eutils/eutilsjson__esummary.error.xml"), "u"),
    (e: unknown) => e instanceof ToolError && /Invalid db name specified: fleegle/.test(e.message),
  );
});

Deno.test("parseEInfo reads PubMed's count, last update, fields and links", () => {
  const info = parseEInfo(fixture("ncbi/eutils/biopython__einfo2_pubmed.xml"), "u");
  assert.equal(info.dbName, "pubmed");
  assert.equal(info.menuName, "PubMed");
  assert.equal(info.description, "PubMed bibliographic record");
  assert.equal(info.dbBuild, "Build-2025.11.27.06.33");
  assert.equal(info.count, 39730388);
  assert.equal(info.lastUpdate, "2025/11/27 06:33");
  assert.equal(info.fields.length, 50);
  assert.deepEqual(info.fields[4], {
    name: "MESH",
    fullName: "MeSH Terms",
    description: "Medical Subject Headings assigned to publication",
    isDate: false,
    isNumerical: false,
    isHidden: false,
  });
  assert.equal(info.links.length, 57);
  assert.deepEqual(info.links.at(-1), {
    name: "pubmed_taxonomy_entrez",
    menu: "Taxonomy via GenBank",
    description: "Related Taxonomy entry computed using other Entrez links",
    dbTo: "taxonomy",
  });
});

Deno.test("parseEInfo reads the 2010 format (no DbBuild) too", () => {
  const info = parseEInfo(fixture("ncbi/eutils/biopython__einfo3_2010_pubmed.xml"), "u");
  assert.equal(info.dbName, "pubmed");
  assert.equal(info.dbBuild, undefined);
  assert.ok(info.count > 19_000_000);
  assert.ok(info.fields.some((f) => f.name === "PDAT" && f.isDate));
});

Deno.test("parseEInfo turns <ERROR> into UPSTREAM_ERROR", () => {
  assert.throws(
    () => parseEInfo(fixture("ncbi/eutils/eutilsjson__einfo.error.xml"), "u"),
    (e: unknown) => e instanceof ToolError && /Can not retrieve DbInfo for db=fleegle/.test(e.message),
  );
});

Deno.test("splitMedlineText splits recorded MEDLINE text into one record per PMID", () => {
  const four = splitMedlineText(fixture("ncbi/pubmed/biopython__medline_pubmed_result2.txt"));
  assert.deepEqual(four.map((r) => r.pmid), ["16403221", "16377612", "14871861", "14630660"]);
  assert.match(four[0].text, /^PMID- 16403221\n/);
  const [one] = splitMedlineText(fixture("ncbi/pubmed/pubmedly__medline_36410718.txt"));
  assert.equal(one.pmid, "36410718");
  assert.match(one.text, /\nSO {2}- Nature\. 2023/);
  assert.deepEqual(splitMedlineText("\n\n"), []);
});

Deno.test("every recorded MEDLINE text file splits into its records", () => {
  const expected: Record<string, string[]> = {
    "biopython__efetch_medline_19304878.txt": ["19304878"],
    "biopython__medline_pubmed_result2.txt": ["16403221", "16377612", "14871861", "14630660"],
    "biopython__medline_pubmed_result4_2023_publisher.txt": ["37195739"],
    "pubmedly__medline_36410718.txt": ["36410718"],
  };
  for (const [file, pmids] of Object.entries(expected)) {
    const records = splitMedlineText(fixture(`ncbi/pubmed/${file}`));
    assert.deepEqual(records.map((r) => r.pmid), pmids, file);
    for (const r of records) assert.match(r.text, /\nTI {2}- \S/, `${file}: a title line`);
  }
});
