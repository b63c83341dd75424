/**
 * Crossref and OpenAlex works as {@link CitationRecord}s, so the PubMed citation styles format them too.
 * Crossref has structured names (family/given); OpenAlex only display names, split at the last word.
 */
import type { ArxivEntry } from "../../../sources/arxiv/types.ts";
import type { CrossrefWork } from "../../../sources/crossref/types.ts";
import { workUpdates } from "../../../sources/crossref/parse_work.ts";
import type { PubMedAuthor, PubMedDate, PubMedRecordType } from "../../../sources/ncbi/pubmed/types.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";
import type { CitationRecord } from "../../../sources/citations/record.ts";

export function fromCrossref(w: CrossrefWork): CitationRecord {
  const type = recordType(w.type);
  return compact({
    recordType: type,
    title: w.title ?? "",
    authors: w.authors.map((a) =>
      a.family
        ? compact({ lastName: a.family, firstName: a.given, initials: initials(a.given) })
        : { collectiveName: a.name ?? a.given ?? "" }
    ),
    journalInfo: compact({
      title: type === "journal_article" ? w.containerTitle : undefined,
      isoAbbreviation: type === "journal_article" ? w.shortContainerTitle : undefined,
      issn: w.issn,
      volume: w.volume,
      issue: w.issue,
      pages: w.page,
      publicationDate: isoDate(w.issued),
    }),
    keywords: [],
    languages: [],
    book: type === "journal_article" ? undefined : compact({
      bookTitle: type === "book_chapter" ? w.containerTitle : undefined,
      publisher: w.publisher,
      isbn: [],
      editors: [],
    }),
    doi: w.doi,
    database: "Crossref",
    updates: w.updatedBy.length ? workUpdates(w) : undefined,
  });
}

export function fromOpenAlex(w: OpenAlexWork): CitationRecord {
  const type = recordType(w.type);
  const b = w.biblio ?? {};
  return compact({
    recordType: type,
    title: w.title ?? "",
    authors: w.authors.map(splitName),
    journalInfo: compact({
      title: type === "journal_article" ? w.venue : undefined,
      volume: b.volume,
      issue: b.issue,
      pages: b.firstPage && b.lastPage && b.lastPage !== b.firstPage ? `${b.firstPage}-${b.lastPage}` : b.firstPage,
      publicationDate: isoDate(w.publicationDate),
    }),
    keywords: [],
    languages: [],
    book: type === "journal_article"
      ? undefined
      : compact({ bookTitle: type === "book_chapter" ? w.venue : undefined, isbn: [], editors: [] }),
    doi: w.doi,
    pmid: w.pmid,
    pmcId: w.pmcid,
    arxivId: w.arxivId,
    openalexId: w.id || undefined,
    abstractText: w.abstract,
    database: "OpenAlex",
  });
}

/** An arXiv preprint (a journal reference, when the entry has one, goes nowhere: its form is free text). */
export function fromArxiv(e: ArxivEntry): CitationRecord {
  return compact({
    recordType: "journal_article" as const,
    title: e.title.replace(/\s+/g, " ").trim(),
    authors: e.authors.map(splitName),
    journalInfo: { title: "arXiv", publicationDate: isoDate(e.published.slice(0, 10)) },
    keywords: [],
    languages: [],
    doi: e.doi,
    arxivId: e.id,
    abstractText: e.summary,
    database: "arXiv",
  });
}

function recordType(type: string | undefined): PubMedRecordType {
  if (type === "book" || type === "monograph" || type === "edited-book") return "book";
  if (type === "book-chapter" || type === "book-section") return "book_chapter";
  return "journal_article";
}

/**
 * "Lisa J. Green" → Green, Lisa J. (initials LJ); a one-word name is a surname.
 * @example splitName("Walt Wolfram") // { lastName: "Wolfram", firstName: "Walt", initials: "W" }
 */
export function splitName(name: string): PubMedAuthor {
  const words = name.trim().split(/\s+/);
  if (words.length === 1) return { lastName: words[0] };
  const firstName = words.slice(0, -1).join(" ");
  return compact({ lastName: words[words.length - 1], firstName, initials: initials(firstName) });
}

function initials(given: string | undefined): string | undefined {
  const letters = (given ?? "").split(/[\s.-]+/).filter(Boolean).map((p) => p[0].toUpperCase()).join("");
  return letters || undefined;
}

/** `2008-02-29` → `{ year, month, day }`. */
function isoDate(value: string | undefined): PubMedDate {
  const [year, month, day] = (value ?? "").split("-");
  return compact({ year: year || undefined, month: month || undefined, day: day || undefined });
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
