/**
 * Europe PMC hits as search_papers shows them (PubMed, PMC, preprints from bioRxiv, medRxiv and others, patents,
 * Agricola): each carries its PMID/PMCID/DOI in `ids`, a short abstract, and `preprint`/`retracted` flags; and
 * the query with its date range. Paging by cursorMark lives in search_sources.ts.
 */
import type { EuropePmcRecord } from "../../sources/europepmc/types.ts";
import type { DayRange } from "./date_range.ts";
import type { Paper } from "./schemas.ts";

/** Abstracts in a hit list are cut here (the full one is a fetch_content call away). */
export const HIT_ABSTRACT_CHARS = 300;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/**
 * The query with the date range as a FIRST_PDATE clause and, for `preprint`, Europe PMC's preprint source
 * (SRC:PPR: bioRxiv, medRxiv, Research Square and others) required or excluded.
 */
export function europePmcQuery(query: string, range: DayRange, preprint?: boolean): string {
  const text = query.replace(CONTROL, " ").trim();
  const clauses = [
    range.from || range.to ? `FIRST_PDATE:[${range.from ?? "1800-01-01"} TO ${range.to ?? "3000-12-31"}]` : "",
    preprint === true ? "SRC:PPR" : preprint === false ? "NOT SRC:PPR" : "",
  ].filter(Boolean);
  if (!clauses.length) return text;
  return `(${text})${clauses.map((c) => c.startsWith("NOT ") ? ` ${c}` : ` AND ${c}`).join("")}`;
}

/** `SRC:ID` (MED:39709209, PPR:PPR1036674): fetch_content source=europepmc takes it. */
export function europePmcPaper(r: EuropePmcRecord): Paper {
  const ids = {
    ...(r.pmid ? { pmid: r.pmid } : {}),
    ...(r.pmcid ? { pmcid: r.pmcid } : {}),
    ...(r.doi ? { doi: r.doi } : {}),
  };
  return {
    id: `${r.source}:${r.id}`,
    title: r.title,
    authors: r.authors,
    date: r.date,
    pdf_url: null,
    ...(r.citedByCount !== undefined ? { cited_by_count: r.citedByCount } : {}),
    ...(r.abstract ? { abstract: cut(r.abstract, HIT_ABSTRACT_CHARS) } : {}),
    ...(r.doi ? { doi: r.doi } : {}),
    ...(r.venue ? { venue: r.venue } : {}),
    ...(Object.keys(ids).length ? { ids } : {}),
    ...(r.preprint ? { preprint: true } : {}),
    ...(r.retracted
      ? { retracted: true, ...(r.retracted.notice ? { retraction_notice: r.retracted.notice } : {}) }
      : {}),
  };
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(" ", max);
  return `${text.slice(0, at > max * 0.6 ? at : max).trimEnd()}…`;
}
