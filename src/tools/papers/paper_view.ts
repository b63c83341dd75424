/** Source records → the papers tools' output shape. */
import type { ArxivEntry } from "../../sources/arxiv/types.ts";
import type { OpenAlexWork } from "../../sources/openalex/types.ts";
import { shortProse } from "../../render/untrusted.ts";
import type { Paper } from "./schemas.ts";

/** Characters of an abstract a listing shows. */
export const LISTING_ABSTRACT_CHARS = 300;

export function arxivPaper(e: ArxivEntry): Paper {
  const bare = e.id.replace(/v\d+$/, "");
  return {
    id: e.id,
    title: e.title || null,
    authors: e.authors,
    date: e.published ? e.published.slice(0, 10) : null,
    pdf_url: e.pdfUrl ?? `https://arxiv.org/pdf/${e.id}`,
    ...(e.doi ? { doi: e.doi } : {}),
    venue: e.journalRef?.trim() || "arXiv",
    ids: { arxiv: bare, ...(e.doi ? { doi: e.doi } : {}) },
    ...(e.summary?.trim() ? { abstract: shortProse(e.summary, LISTING_ABSTRACT_CHARS) } : {}),
  };
}

export function openalexPaper(w: OpenAlexWork): Paper {
  const ids = {
    openalex: w.id,
    ...(w.arxivId ? { arxiv: w.arxivId } : {}),
    ...(w.pmid ? { pmid: w.pmid } : {}),
    ...(w.pmcid ? { pmcid: w.pmcid } : {}),
    ...(w.doi ? { doi: w.doi } : {}),
  };
  return {
    id: w.id,
    title: w.title ?? null,
    authors: w.authors,
    date: w.publicationDate ?? null,
    pdf_url: w.pdfUrl ?? null,
    ...(w.doi ? { doi: w.doi } : {}),
    ...(w.venue ? { venue: w.venue } : {}),
    ids,
    ...(w.isRetracted ? { retracted: true as const } : {}),
    ...(w.abstract ? { abstract: shortProse(w.abstract, LISTING_ABSTRACT_CHARS) } : {}),
  };
}

export function citedPaper(w: OpenAlexWork): Paper & { cited_by_count: number } {
  const { abstract, ...rest } = openalexPaper(w);
  // cited_by_count reads beside the date, before the abstract.
  return { ...rest, cited_by_count: w.citedByCount ?? 0, ...(abstract ? { abstract } : {}) };
}

/** Today's date (UTC) on the injected clock, for `to_publication_date`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
