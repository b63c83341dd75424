/**
 * ESummary db=pubmed version=2.0 → brief summaries. A fatal `<ERROR>` throws; a per-id failure
 * (`<DocumentSummary uid="…"><error>…</error>`) becomes a summary with `error` set, so one bad id never
 * hides the others and is never passed off as an empty record.
 */
import { eSummaryDocuments } from "../eutils/root.ts";
import { markupToText } from "./markup_text.ts";
import { isoDate } from "./dates.ts";
import type { PubMedSummary } from "./types.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "../eutils/xml.ts";

export function parseESummaryPubMed(xml: string, url: string): PubMedSummary[] {
  const doc = parseNcbiXml(xml, url, ["DocumentSummary", "Author", "ArticleId"]);
  const docs = eSummaryDocuments(
    doc,
    url,
    (fatal) =>
      /query_key|WebEnv|history/i.test(fatal)
        ? "The search history expired; run searchPubMedArticles again."
        : "Retry shortly; if it persists, check the PMIDs.",
  );
  return docs.map(toSummary);
}

function toSummary(doc: XmlNode): PubMedSummary {
  const pmid = String(doc["@_uid"] ?? "");
  const error = clean(doc.error);
  if (error) return { pmid, title: "", authors: [], source: "", error };
  const authorsNode = doc.Authors as XmlNode | undefined;
  const authors = asArray(authorsNode && typeof authorsNode === "object" ? authorsNode.Author as XmlNode[] : undefined)
    .map((a) => clean(a.Name)).filter(Boolean);
  const summary: PubMedSummary = {
    pmid,
    title: markupToText(escapeStray(clean(doc.Title))),
    authors,
    source: clean(doc.Source),
  };
  const pubDate = isoDate(clean(doc.PubDate));
  if (pubDate) summary.pubDate = pubDate;
  const epubDate = isoDate(clean(doc.EPubDate));
  if (epubDate) summary.epubDate = epubDate;
  const idsNode = doc.ArticleIds as XmlNode | undefined;
  const articleIds = asArray(idsNode && typeof idsNode === "object" ? idsNode.ArticleId as XmlNode[] : undefined);
  const doi = articleIds.find((id) => clean(id.IdType) === "doi");
  if (doi && clean(doi.Value)) summary.doi = clean(doi.Value);
  const pmc = articleIds.map((id) => clean(id.IdType) === "pmc" ? clean(id.Value) : "").find((v) => /^PMC\d+$/.test(v));
  if (pmc) summary.pmcid = pmc;
  return summary;
}

function clean(node: unknown): string {
  return text(node).replace(/\s+/g, " ").trim();
}

/** Inline HTML tags and MathML elements (any namespace prefix) that ESummary titles carry as markup. */
const KNOWN_TAG = new RegExp(
  "<(?!/?(?:i|b|u|sup|sub|em|strong)>|/?(?:[\\w-]+:)?(?:math|mi|mn|mo|mtext|ms|mspace|mrow|msub|msup|msubsup|" +
    "munder|mover|munderover|mmultiscripts|mprescripts|none|mfrac|msqrt|mroot|mfenced|mstyle|mpadded|mphantom|" +
    "menclose|mtable|mtr|mtd|mlabeledtr|semantics|annotation|annotation-xml|maction|merror|mglyph)[\\s/>])",
  "gi",
);

/**
 * ESummary titles arrive entity-decoded, so inline tags (`<i>`, MathML) appear as text. Known tags are
 * turned into text by markupToText (MathML rendered as in EFetch titles); any other `<` or `&` is
 * re-escaped first so it survives as a character.
 */
function escapeStray(title: string): string {
  return title.replace(/&/g, "&amp;").replace(KNOWN_TAG, "&lt;");
}
