/**
 * search_papers source=europepmc: keyword search over Europe PMC (PubMed, PMC, preprints from bioRxiv,
 * medRxiv and others, patents, Agricola), paged by Europe PMC's cursorMark wrapped in an opaque cursor.
 * Each hit carries its PMID/PMCID/DOI in `ids`, a short abstract, and `preprint`/`retracted` flags.
 */
import { nextCall } from "../../core/next_call.ts";
import { z } from "../../core/zod.ts";
import { invalidInput, ToolError } from "../../core/errors.ts";
import { cursorBinding } from "../../core/envelope.ts";
import { searchEuropePmc } from "../../sources/europepmc/client.ts";
import type { EuropePmcRecord } from "../../sources/europepmc/types.ts";
import type { ToolContext } from "../tool_def.ts";
import type { DayRange } from "./date_range.ts";
import { type Paper, partialSuccess, sourceSchema, type Warning } from "./schemas.ts";

/** search_papers' sources: the listing sources and Europe PMC (search only). */
export const searchSourceSchema = z.enum([...sourceSchema.options, "europepmc"]);

/** Abstracts in a hit list are cut here (the full one is a fetch_content call away). */
export const HIT_ABSTRACT_CHARS = 300;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

const SORTS = { relevance: undefined, date: "P_PDATE_D desc", citations: "CITED desc" } as const;

export interface EuropePmcArgs {
  query: string;
  sort: keyof typeof SORTS;
  count: number;
  offset: number;
  filter?: string;
  preprint?: boolean;
  cursor?: string;
}

export interface EuropePmcResult {
  source: "europepmc";
  query_sent: string;
  papers: Paper[];
  total: number;
  offset: number;
  next_cursor?: string;
  warnings?: Warning[];
}

export async function searchEuropePmcPapers(
  args: EuropePmcArgs,
  range: DayRange,
  ctx: ToolContext,
): Promise<EuropePmcResult> {
  const query = europePmcQuery(args.query, range, args.preprint);
  const sort = SORTS[args.sort];
  const binding = await cursorBinding("search_papers", { source: "europepmc", query, sort });
  const at = readCursor(args.cursor, binding);
  if (!args.cursor && args.offset > 0) {
    throw invalidInput(
      "offset",
      "Europe PMC pages by cursor, not by offset",
      args.offset,
      "Start with offset 0, then pass the next_cursor of each answer as cursor.",
    );
  }
  const { page } = await searchEuropePmc(ctx, { query, cursor: at.mark, pageSize: args.count, sort });
  const papers = page.records.slice(0, args.count).map(europePmcPaper);
  const end = at.offset + papers.length;
  const more = page.nextCursor && page.nextCursor !== at.mark && papers.length > 0 && end < page.hitCount;
  const warnings: Warning[] = [];
  if (args.filter) {
    warnings.push({
      code: "IgnoredArgument",
      message: "filter applies to OpenAlex only; for Europe PMC put fields in the query (e.g. SRC:PPR, OPEN_ACCESS:y).",
    });
  }
  const partial = partialSuccess(papers, "Europe PMC");
  if (partial) warnings.push(partial);
  const cursor = more ? writeCursor({ m: page.nextCursor!, o: end, h: binding }) : undefined;
  return {
    source: "europepmc",
    query_sent: `query=${query}${sort ? `&sort=${sort}` : ""}`,
    papers,
    total: page.hitCount,
    offset: at.offset,
    ...(cursor ? { next_cursor: cursor, next: nextCall("search_papers", { ...args }, { cursor }) } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

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

interface CursorState {
  /** Europe PMC's cursorMark. */
  m: string;
  /** Hits before this page. */
  o: number;
  /** Binding to the query and sort it was issued for. */
  h: string;
}

function writeCursor(state: CursorState): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: 1, ...state }));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function readCursor(cursor: string | undefined, binding: string): { mark: string; offset: number } {
  if (cursor === undefined) return { mark: "*", offset: 0 };
  const rejected = (why: string) =>
    new ToolError(
      "INVALID_INPUT",
      `Invalid input 'cursor': ${why}`,
      "Pass next_cursor exactly as the previous search_papers call returned it, with the same query and sort; " +
        "omit cursor to start from the first page.",
      { invalidInput: { field: "cursor", value: cursor.slice(0, 80) } },
    );
  let state: Partial<CursorState> & { v?: unknown };
  try {
    const padded = cursor.replaceAll("-", "+").replaceAll("_", "/");
    state = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(atob(padded + "=".repeat((4 - padded.length % 4) % 4)), (c) => c.charCodeAt(0)),
    ));
  } catch {
    throw rejected("not a cursor issued by this server");
  }
  if (state?.v !== 1 || typeof state.m !== "string" || !Number.isInteger(state.o) || typeof state.h !== "string") {
    throw rejected("not a cursor issued by this server");
  }
  if (state.h !== binding) throw rejected("this cursor belongs to a different search_papers query");
  return { mark: state.m, offset: state.o! };
}
