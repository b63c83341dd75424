/**
 * arXiv API client (`arxiv-api` upstream: one request per 3 s on one connection, enforced by the core
 * pacer, so concurrent calls queue instead of failing). Returns typed records; errors are ToolErrors with
 * arXiv's own message, or UpstreamErrors the core maps (429 → RATE_LIMITED).
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import type { SourceContext } from "../../context.ts";
import type { ServiceRequest } from "../../upstreams/mod.ts";
import { sameArxivPaper } from "./ids.ts";
import { parseBody } from "../parse_off_thread.ts";
import { arxivFeedJob, ArxivQueryError, parseArxivFeed } from "./parse_atom.ts";
import type { ArxivEntry, ArxivFeed } from "./types.ts";

export type ArxivCtx = Pick<SourceContext, "upstream" | "signal">;

/** Entries per API call: small pages come back fast and a throttled page costs little to retry. */
export const ARXIV_PAGE_SIZE = 100;

export interface LatestResult {
  entries: ArxivEntry[];
  total: number;
  /** Set when fewer entries came back than were asked for and arXiv's total promised: says where it stopped. */
  shortfall?: string;
}

/**
 * `count` of the newest submissions of one category from the `from`-th on, newest first, paged
 * `ARXIV_PAGE_SIZE` at a time.
 * arXiv sometimes answers a later page with an empty feed whose totalResults is 0; that page neither
 * lowers the total already known nor ends the listing quietly: the result is marked short.
 * @example await latestInCategory(ctx, "cs.LG", 50)
 */
export async function latestInCategory(
  ctx: ArxivCtx,
  category: string,
  count: number,
  onPage?: (received: number, wanted: number) => Promise<void>,
  from = 0,
): Promise<LatestResult> {
  const entries: ArxivEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let start = from;
  while (entries.length < count) {
    const size = Math.min(ARXIV_PAGE_SIZE, count - entries.length);
    const feed = await query(ctx, {
      search_query: `cat:${category}`,
      sortBy: "submittedDate",
      sortOrder: "descending",
      start,
      max_results: size,
    });
    // A later empty page says nothing about the total; other pages may raise it (new submissions).
    if (feed.entries.length > 0 || start === from) {
      total = Math.max(total, feed.totalResults, start + feed.entries.length);
    }
    // New submissions can shift the listing between pages; a repeated id is skipped, not duplicated.
    const before = entries.length;
    for (const e of feed.entries) {
      if (seen.has(e.id) || entries.length >= count) continue;
      seen.add(e.id);
      entries.push(e);
    }
    await onPage?.(entries.length, Math.min(count, total));
    start += feed.entries.length;
    if (start >= total || entries.length >= count) break;
    // An empty page (or one that only repeats ids) would otherwise loop until `total`.
    if (entries.length === before) break;
  }
  const expected = Math.min(count, total - from);
  if (entries.length >= expected) return { entries, total };
  return {
    entries,
    total,
    shortfall: `partial result: ${entries.length} of ${expected} papers; arXiv returned no new entries at ` +
      `start=${start} of ${total} results`,
  };
}

/**
 * One page of a search in arXiv's `search_query` syntax, from `start`, best match or newest first.
 * @example await searchPage(ctx, "all:graph AND all:neural", "relevance", 0, 20)
 */
export async function searchPage(
  ctx: ArxivCtx,
  searchQuery: string,
  sortBy: "relevance" | "submittedDate",
  start: number,
  count: number,
): Promise<ArxivFeed> {
  return await query(ctx, { search_query: searchQuery, sortBy, sortOrder: "descending", start, max_results: count });
}

/**
 * One paper by id (`2104.12255` gives the latest version); undefined when arXiv has no such paper. The
 * entry must be the paper asked for (same id, same version when one was given): an answer about another
 * paper is an UPSTREAM_ERROR, never passed off as the requested one.
 */
export async function entryById(ctx: ArxivCtx, id: string): Promise<ArxivEntry | undefined> {
  const feed = await query(ctx, { id_list: id, max_results: 1 });
  if (feed.entries.length === 0) return undefined;
  const entry = feed.entries.find((e) => sameArxivPaper(id, e.id));
  if (entry) return entry;
  throw new ToolError(
    "UPSTREAM_ERROR",
    `arXiv answered the request for ${id} with ${feed.entries.map((e) => e.id).join(", ")}, not the paper asked for.`,
    "Retry shortly; if it persists, open https://arxiv.org/abs/" + id + " to check the id.",
    { invalidInput: { field: "id", value: id } },
  );
}

async function query(ctx: ArxivCtx, params: ServiceRequest["query"]): Promise<ArxivFeed> {
  const request: ServiceRequest = {
    upstream: "arxiv-api",
    path: "/query",
    query: params,
    accept: "application/atom+xml",
    signal: ctx.signal,
  };
  try {
    const response = await ctx.upstream.request(request);
    return await parseBody(arxivFeedJob, response, [], ctx.signal);
  } catch (error) {
    throw asQueryError(error, ctx.upstream.describe(request));
  }
}

/** arXiv answers a bad query with an Atom error feed (HTTP 400 or 200): surface its message. */
function asQueryError(error: unknown, url: string): unknown {
  let message: string | undefined;
  if (error instanceof ArxivQueryError) message = error.message;
  else if (error instanceof UpstreamError && error.status === 400 && error.body?.includes("<feed")) {
    try {
      parseArxivFeed(error.body, url);
    } catch (inner) {
      if (inner instanceof ArxivQueryError) message = inner.message;
    }
  }
  if (message === undefined) return error;
  return new ToolError(
    "INVALID_INPUT",
    `arXiv rejected the request: ${message}`,
    "Check the arXiv id (e.g. 2104.12255 or hep-th/9901001) or category (list_categories source=arxiv).",
    { cause: error },
  );
}
