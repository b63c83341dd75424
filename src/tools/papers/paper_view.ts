/** Source records → the papers tools' output shape. */
import type { ArxivEntry } from "../../sources/arxiv/types.ts";
import type { OpenAlexWork } from "../../sources/openalex/types.ts";
import type { Paper } from "./schemas.ts";

export function arxivPaper(e: ArxivEntry): Paper {
  return {
    id: e.id,
    title: e.title || null,
    authors: e.authors,
    date: e.published ? e.published.slice(0, 10) : null,
    pdf_url: e.pdfUrl ?? `https://arxiv.org/pdf/${e.id}`,
  };
}

export function openalexPaper(w: OpenAlexWork): Paper {
  return {
    id: w.id,
    title: w.title ?? null,
    authors: w.authors,
    date: w.publicationDate ?? null,
    pdf_url: w.pdfUrl ?? null,
  };
}

export function citedPaper(w: OpenAlexWork): Paper & { cited_by_count: number } {
  return { ...openalexPaper(w), cited_by_count: w.citedByCount ?? 0 };
}

/** Today's date (UTC) on the injected clock, for `to_publication_date`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
