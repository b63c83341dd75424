/**
 * A Crossref work → CSL-JSON. The type table (Crossref → CSL) is the one BibTeX and RIS follow too:
 * journal-article → article-journal, proceedings-article → paper-conference, book → book, book-chapter →
 * chapter, posted-content → article (genre preprint), dataset → dataset, report → report, dissertation →
 * thesis. An `article-number` is the item's `number` (the locator styles print when there are no pages).
 */
import type { CrossrefAuthor, CrossrefWork } from "../../crossref/types.ts";
import { citationKey, clean, compactItem, type CslItem, type CslName, type CslType, isoToCslDate } from "../csl.ts";

const TYPES: Record<string, CslType> = {
  "journal-article": "article-journal",
  "proceedings-article": "paper-conference",
  "book": "book",
  "monograph": "book",
  "edited-book": "book",
  "reference-book": "book",
  "book-set": "book",
  "book-series": "book",
  "book-chapter": "chapter",
  "book-section": "chapter",
  "book-part": "chapter",
  "reference-entry": "entry-encyclopedia",
  "posted-content": "article",
  "dataset": "dataset",
  "database": "dataset",
  "report": "report",
  "report-component": "report",
  "report-series": "report",
  "dissertation": "thesis",
  "standard": "standard",
  "peer-review": "review",
};

/** The CSL type of a Crossref type (`article` for the kinds CSL has no better word for). */
export function crossrefCslType(work: Pick<CrossrefWork, "type" | "subtype">): CslType {
  if (work.type === "posted-content" && work.subtype === "blog") return "post-weblog";
  return TYPES[work.type ?? ""] ?? (work.type ? "article" : "article-journal");
}

export function crossrefToCsl(w: CrossrefWork): CslItem {
  const type = crossrefCslType(w);
  const author = w.authors.map(name).filter((n): n is CslName => !!n);
  const issued = isoToCslDate(w.issued);
  const title = [clean(w.title), clean(w.subtitle)].filter(Boolean).join(": ");
  const container = clean(w.containerTitle);
  return compactItem({
    id: citationKey(author, issued, { doi: w.doi }),
    type,
    genre: type === "article" && w.type === "posted-content"
      ? (w.subtype === "preprint" || !w.subtype ? "preprint" : undefined)
      : type === "thesis"
      ? clean(w.degree)
      : undefined,
    title,
    author,
    editor: (w.editors ?? []).map(name).filter((n): n is CslName => !!n),
    // A preprint's container is its server (bioRxiv): Crossref names it as the institution.
    "container-title": container ?? (type === "article" ? clean(w.institution?.name) : undefined),
    "container-title-short": clean(w.shortContainerTitle),
    "event-title": type === "paper-conference" ? clean(w.event?.name) : undefined,
    "event-place": type === "paper-conference" ? clean(w.event?.location) : undefined,
    volume: clean(w.volume),
    issue: clean(w.issue),
    page: clean(w.page),
    number: clean(w.articleNumber),
    edition: clean(w.edition),
    issued,
    // A report's issuer and a thesis's university are the institution; the publisher is who registered it.
    publisher: type === "thesis" || type === "report"
      ? clean(w.institution?.name) ?? clean(w.publisher)
      : clean(w.publisher),
    "publisher-place": clean(w.publisherLocation) ?? (type === "report" ? clean(w.institution?.place) : undefined),
    ISSN: clean(w.issn),
    ISBN: clean(w.isbn?.[0]),
    DOI: clean(w.doi),
    language: clean(w.language),
    source: "Crossref",
  });
}

function name(a: CrossrefAuthor): CslName | undefined {
  const family = clean(a.family);
  if (family) {
    const given = clean(a.given);
    return given ? { family, given } : { family };
  }
  const literal = clean(a.name) ?? clean(a.given);
  return literal ? { literal } : undefined;
}
