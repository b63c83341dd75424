/**
 * arXiv API client (`arxiv-api` upstream: one request per 3 s on one connection, enforced by the core
 * pacer, so concurrent calls queue instead of failing). Returns typed records; errors are ToolErrors with
 * arXiv's own message, or UpstreamErrors the core maps (429 → RATE_LIMITED).
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import type { SourceContext } from "../../context.ts";
import type { ServiceRequest } from "../../upstreams/mod.ts";
import { ArxivQueryError, parseArxivFeed } from "./parse_atom.ts";
import type { ArxivEntry, ArxivFeed } from "./types.ts";

export type ArxivCtx = Pick<SourceContext, "upstream" | "signal">;

/** Entries per API call: small pages come back fast and a throttled page costs little to retry. */
export const ARXIV_PAGE_SIZE = 100;

export interface LatestResult {
  entries: ArxivEntry[];
  total: number;
  /** Set when arXiv stopped early (an empty page before `total` was reached). */
  shortfall?: string;
}

/**
 * The newest submissions of one category, newest first, paged `ARXIV_PAGE_SIZE` at a time.
 * @example await latestInCategory(ctx, "cs.LG", 50)
 */
export async function latestInCategory(
  ctx: ArxivCtx,
  category: string,
  count: number,
  onPage?: (received: number, wanted: number) => Promise<void>,
): Promise<LatestResult> {
  const entries: ArxivEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (let start = 0; entries.length < count;) {
    const size = Math.min(ARXIV_PAGE_SIZE, count - entries.length);
    const feed = await query(ctx, {
      search_query: `cat:${category}`,
      sortBy: "submittedDate",
      sortOrder: "descending",
      start,
      max_results: size,
    });
    total = feed.totalResults;
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
    if (entries.length === before) {
      return { entries, total, shortfall: `arXiv returned no new entries at start=${start} of ${total} results` };
    }
  }
  return { entries, total };
}

/** One paper by id (`2104.12255` gives the latest version); undefined when arXiv has no such paper. */
export async function entryById(ctx: ArxivCtx, id: string): Promise<ArxivEntry | undefined> {
  const feed = await query(ctx, { id_list: id, max_results: 1 });
  return feed.entries[0];
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
    return parseArxivFeed(response.text(), response.url);
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
