/**
 * An OpenAlex work → CSL-JSON. OpenAlex gives display names only (split at the last word), its own type
 * vocabulary (article, book, book-chapter, preprint, dataset, dissertation, report…) and volume, issue and
 * first/last page in `biblio`.
 */
import type { OpenAlexWork } from "../../openalex/types.ts";
import { citationKey, clean, compactItem, type CslItem, type CslType, isoToCslDate, splitDisplayName } from "../csl.ts";

const TYPES: Record<string, CslType> = {
  "article": "article-journal",
  "review": "article-journal",
  "letter": "article-journal",
  "editorial": "article-journal",
  "book": "book",
  "book-chapter": "chapter",
  "conference-paper": "paper-conference",
  "proceedings-article": "paper-conference",
  "preprint": "article",
  "dataset": "dataset",
  "dissertation": "thesis",
  "report": "report",
  "standard": "standard",
  "reference-entry": "entry-encyclopedia",
  "peer-review": "review",
};

export function openalexToCsl(w: OpenAlexWork): CslItem {
  const type = TYPES[w.type ?? ""] ?? (w.type ? "article" : "article-journal");
  const author = w.authors.map(splitDisplayName).filter((n) => n.family);
  const issued = isoToCslDate(w.publicationDate);
  const b = w.biblio ?? {};
  const first = clean(b.firstPage);
  const last = clean(b.lastPage);
  const doi = clean(w.doi);
  return compactItem({
    id: citationKey(author, issued, { pmid: w.pmid, arxiv: w.arxivId, openalex: w.id || undefined, doi }),
    type,
    genre: type === "article" && w.type === "preprint" ? "preprint" : undefined,
    title: clean(w.title) ?? "",
    author,
    "container-title": type === "book" ? undefined : clean(w.venue),
    volume: clean(b.volume),
    issue: clean(b.issue),
    page: first && last && last !== first ? `${first}-${last}` : first,
    issued,
    DOI: doi,
    PMID: clean(w.pmid),
    PMCID: clean(w.pmcid),
    URL: doi
      ? undefined
      : w.arxivId
      ? `https://arxiv.org/abs/${w.arxivId}`
      : w.id
      ? `https://openalex.org/${w.id}`
      : undefined,
    abstract: clean(w.abstract),
    source: "OpenAlex",
    custom: { arxiv: clean(w.arxivId), openalex: clean(w.id) },
  });
}
