/**
 * search_papers source=europepmc: keyword search over Europe PMC (PubMed, PMC, preprints from bioRxiv,
 * medRxiv and others, patents, Agricola), paged by Europe PMC's cursorMark wrapped in an opaque cursor.
 * Each hit carries its PMID/PMCID/DOI in `ids`, a short abstract, and `preprint`/`retracted` flags.
 */
import { nextCall } from "../../core/next_call.ts";
import { z } from "../../core/zod.ts";
import { searchEuropePmc } from "../../sources/europepmc/client.ts";
import type { EuropePmcRecord } from "../../sources/europepmc/types.ts";
import type { ToolContext } from "../tool_def.ts";
import type { DayRange } from "./date_range.ts";
import { type Paper, partialSuccess, sourceSchema, type Warning } from "./schemas.ts";
import { cursorAt, type SearchPosition, TOOL } from "./search_cursor.ts";

/** search_papers' sources: the listing sources and Europe PMC (search only). */
export const searchSourceSchema = z.enum([...sourceSchema.options, "europepmc"]);

/** Europe PMC's largest pageSize. */
const MAX_PAGE_SIZE = 1000;

/** Abstracts in a hit list are cut here (the full one is a fetch_content call away). */
export const HIT_ABSTRACT_CHARS = 300;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

const SORTS = { relevance: undefined, date: "P_PDATE_D desc", citations: "CITED desc" } as const;

export interface EuropePmcArgs {
  [key: string]: unknown;
  query: string;
  sort: keyof typeof SORTS;
  count: number;
  filter?: string;
  cursor?: string;
}

export interface EuropePmcResult {
  source: "europepmc";
  query_sent: string;
  papers: Paper[];
  total_count: number;
  next_cursor?: string;
  warnings?: Warning[];
}

/**
 * One page from `start` (see search_cursor.ts): the upstream page at cursorMark `m` is asked for the `s` hits
 * already shown plus `count`, and the page is what follows those `s`.
 */
export async function searchEuropePmcPapers(
  args: EuropePmcArgs,
  start: SearchPosition,
  range: DayRange,
  ctx: ToolContext,
): Promise<EuropePmcResult> {
  const query = europePmcQuery(args.query, range);
  const sort = SORTS[args.sort];
  const mark = start.m ?? "*";
  const skip = start.s ?? 0;
  const pageSize = Math.min(skip + args.count, MAX_PAGE_SIZE);
  const { page } = await searchEuropePmc(ctx, { query, cursor: mark, pageSize, sort });
  const papers = page.records.slice(skip, pageSize).map(europePmcPaper);
  const end = start.o + papers.length;
  const more = page.nextCursor && page.nextCursor !== mark && papers.length > 0 && end < page.hitCount;
  const warnings: Warning[] = [];
  if (args.filter) {
    warnings.push({
      code: "IgnoredArgument",
      message: "filter applies to OpenAlex only; for Europe PMC put fields in the query (e.g. SRC:PPR, OPEN_ACCESS:y).",
    });
  }
  const partial = partialSuccess(papers, "Europe PMC");
  if (partial) warnings.push(partial);
  const cursor = more ? cursorAt(args, { o: end, m: page.nextCursor!, s: 0 }) : undefined;
  return {
    source: "europepmc",
    query_sent: `query=${query}${sort ? `&sort=${sort}` : ""}`,
    papers,
    total_count: page.hitCount,
    ...(cursor ? { next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The query with the date range as a FIRST_PDATE clause. */
export function europePmcQuery(query: string, range: DayRange): string {
  const text = query.replace(CONTROL, " ").trim();
  if (!range.from && !range.to) return text;
  return `(${text}) AND FIRST_PDATE:[${range.from ?? "1800-01-01"} TO ${range.to ?? "3000-12-31"}]`;
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
