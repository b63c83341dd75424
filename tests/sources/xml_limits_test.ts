/**
 * Hostile XML bodies are refused by one cheap pass before any parser sees them: nesting too deep for the
 * recursive walkers, or more entity references than a record of that size holds. The outcome is an
 * upstream parse error, never INTERNAL with a stack overflow, and real records pass.
 */
import assert from "node:assert/strict";
import { UpstreamError } from "../../src/core/errors.ts";
import { parseArxivFeed } from "../../src/sources/arxiv/parse_atom.ts";
import { parseNcbiXml } from "../../src/sources/ncbi/eutils/xml.ts";
import { parsePmcArticles } from "../../src/sources/pmc/parse_jats.ts";
import { MAX_XML_DEPTH, xmlExcess } from "../../src/sources/xml_check.ts";
import { fixture } from "../helpers/runtime.ts";

const URL_ = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi?db=pmc&id=1";

Deno.test("a JATS title nested 100,000 deep is an upstream parse error, not a stack overflow", () => {
  const title = "<italic>".repeat(100_000) + "x" + "</italic>".repeat(100_000);
  const xml = `<pmc-articleset><article><front><article-meta><title-group><article-title>${title}` +
    `</article-title></title-group></article-meta></front></article></pmc-articleset>`;
  assert.throws(
    () => parsePmcArticles(xml, URL_),
    (e) => e instanceof UpstreamError && e.kind === "parse" && /nested deeper than 256/.test(e.message),
  );
});

Deno.test("an EFetch with two million entity references is refused before parsing", () => {
  const article = `<PubmedArticle><MedlineCitation><PMID>1</PMID><Article><ArticleTitle>T</ArticleTitle>` +
    `<Abstract><AbstractText>${"&amp;&lt;".repeat(1_000)}</AbstractText></Abstract></Article>` +
    `</MedlineCitation></PubmedArticle>`;
  const xml = `<?xml version="1.0"?><PubmedArticleSet>${article.repeat(1_000)}</PubmedArticleSet>`;
  assert.throws(
    () => parseNcbiXml(xml, URL_, ["PubmedArticle"]),
    (e) => e instanceof UpstreamError && e.kind === "parse" && /entity references/.test(e.message),
  );
});

Deno.test("an arXiv feed nested too deep is refused the same way", () => {
  const xml = `<feed xmlns="http://www.w3.org/2005/Atom">${"<x>".repeat(MAX_XML_DEPTH + 1)}${
    "</x>".repeat(MAX_XML_DEPTH + 1)
  }</feed>`;
  assert.throws(() => parseArxivFeed(xml, "https://export.arxiv.org/api/query"), UpstreamError);
});

Deno.test("real records pass the pre-scan: comments, CDATA, self-closing tags and '>' in text do not count", () => {
  for (
    const path of [
      "ncbi/pubmed/pubmedparser__medline16n0902.xml",
      "ncbi/pubmed/metapub__36176722.xml",
      "ncbi/eutils/built__esummary_mathml_title.xml",
    ]
  ) {
    assert.equal(xmlExcess(fixture(path)), undefined, path);
  }
  const nested = (n: number) => "<a>".repeat(n) + "<!-- <b><b><b> --><![CDATA[<c><c>]]><d/>1 > 0" + "</a>".repeat(n);
  assert.equal(xmlExcess(nested(MAX_XML_DEPTH)), undefined);
  assert.match(xmlExcess(nested(MAX_XML_DEPTH + 1))!, /nested deeper/);
});
