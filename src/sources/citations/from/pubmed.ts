/**
 * A PubMed article (or Bookshelf book / chapter) → CSL-JSON. The journal's NLM catalogue title becomes the
 * name styles cite ("The American psychologist" → "The American Psychologist"), its ISO abbreviation the
 * short title (NLM/Vancouver, Nature); MEDLINE page abbreviations are written in full ("332-40" →
 * "332-340"), and a season or date range stays text, never a month PubMed derived for sorting.
 */
import type { PubMedArticle, PubMedAuthor, PubMedDate } from "../../ncbi/pubmed/types.ts";
import { pubmedUrl } from "../../ncbi/pubmed/url.ts";
import { citedDate } from "../cited_date.ts";
import { citationKey, clean, compactItem, type CslDate, type CslItem, type CslName } from "../csl.ts";
import { journalName, pageRange } from "../parts.ts";

/** The fields of a PubMed article a citation reads. */
export type PubMedCitable = Pick<
  PubMedArticle,
  | "pmid"
  | "recordType"
  | "title"
  | "abstractText"
  | "authors"
  | "journalInfo"
  | "keywords"
  | "languages"
  | "doi"
  | "pmcId"
  | "book"
>;

export function pubmedToCsl(a: PubMedCitable): CslItem {
  const info = a.journalInfo;
  const type = a.recordType === "book" ? "book" : a.recordType === "book_chapter" ? "chapter" : "article-journal";
  const author = a.authors.map(name).filter((n): n is CslName => !!n);
  const issued = cslDate(info.publicationDate);
  const range = pageRange(info.pages);
  const doi = clean(a.doi);
  return compactItem({
    id: citationKey(author, issued, { pmid: a.pmid, doi }),
    type,
    title: clean(a.title)?.replace(/\.$/, "") ?? "",
    author,
    editor: (a.book?.editors ?? []).map(name).filter((n): n is CslName => !!n),
    "container-title": type === "article-journal"
      ? clean(journalName(info.title ?? info.isoAbbreviation ?? ""))
      : type === "chapter"
      ? clean(a.book?.bookTitle)
      : undefined,
    "container-title-short": type === "article-journal" ? clean(info.isoAbbreviation) : undefined,
    volume: clean(info.volume),
    issue: clean(info.issue),
    page: range ? clean(range.end ? `${range.start}-${range.end}` : range.start) : undefined,
    edition: clean(a.book?.edition),
    issued,
    publisher: clean(a.book?.publisher),
    "publisher-place": clean(a.book?.publisherLocation),
    ISSN: clean(info.issn),
    ISBN: clean(a.book?.isbn[0]),
    DOI: doi,
    PMID: clean(a.pmid),
    PMCID: clean(a.pmcId),
    URL: doi ? undefined : pubmedUrl(a.pmid),
    language: clean(a.languages[0]),
    abstract: clean(a.abstractText),
    keyword: clean(a.keywords.join(", ")),
    source: "PubMed",
  });
}

/** The date a reference may state: a single month (and day) as parts, a season or range as text. */
export function cslDate(date: PubMedDate): CslDate | undefined {
  const d = citedDate(date);
  const year = Number(d.year);
  if (!Number.isInteger(year) || year <= 0) return undefined;
  const parts = [year];
  if (d.month) parts.push(Number(d.month));
  if (d.month && d.day) parts.push(Number(d.day));
  return d.season ? { "date-parts": [parts], season: d.season } : { "date-parts": [parts] };
}

function name(a: PubMedAuthor): CslName | undefined {
  if (a.collectiveName) return { literal: clean(a.collectiveName) };
  const family = clean(a.lastName);
  if (!family) return undefined;
  const given = clean(a.firstName) ?? clean(a.initials);
  return given ? { family, given } : { family };
}
