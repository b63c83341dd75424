/**
 * CSL-JSON (the Citation Style Language's item format, read by Zotero, Pandoc and citeproc): one item as a
 * JSON string, with the record's ids (DOI, PMID, PMCID, arXiv) so a reference manager can match it.
 */
import { citedDate } from "./cited_date.ts";
import { bibtexKey } from "./bibtex.ts";
import { pageRange } from "./parts.ts";
import { type CitationRecord, recordLink } from "./record.ts";

export function formatCslJson(record: CitationRecord): string {
  const info = record.journalInfo;
  const d = citedDate(info.publicationDate);
  const parts = [d.year, d.month, d.day].filter(Boolean).map(Number);
  const range = pageRange(info.pages);
  const type = record.recordType === "book"
    ? "book"
    : record.recordType === "book_chapter"
    ? "chapter"
    : record.arxivId && !info.volume
    ? "article"
    : "article-journal";
  const item: Record<string, unknown> = {
    id: bibtexKey(record),
    type,
    title: record.title.replace(/\.$/, ""),
    author: record.authors.map((a) =>
      a.collectiveName ? { literal: a.collectiveName } : { family: a.lastName, given: a.firstName ?? a.initials }
    ),
    "container-title": record.book?.bookTitle ?? info.title,
    "container-title-short": info.isoAbbreviation,
    volume: info.volume,
    issue: info.issue,
    page: range ? (range.end ? `${range.start}-${range.end}` : range.start) : undefined,
    issued: parts.length ? { "date-parts": [parts] } : undefined,
    publisher: record.book?.publisher,
    ISSN: info.issn,
    DOI: record.doi,
    PMID: record.pmid,
    PMCID: record.pmcId,
    URL: recordLink(record),
    number: record.arxivId ? `arXiv:${record.arxivId}` : undefined,
    language: record.languages[0],
  };
  return JSON.stringify(Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined && v !== "")));
}
