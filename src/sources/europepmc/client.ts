/**
 * Europe PMC client (`europepmc` upstream): cursor-paged search (core records: abstracts, publication
 * types, retraction links) and open-access full text as JATS, parsed by the PMC parser.
 */
import { UpstreamError } from "../../core/errors.ts";
import type { SourceContext } from "../../context.ts";
import { parseBody } from "../parse_off_thread.ts";
import { europePmcArticlesJob } from "../pmc/parse_jats.ts";
import type { PmcArticle } from "../pmc/types.ts";
import { parseSearch } from "./parse_search.ts";
import type { EuropePmcPage, EuropePmcRecord } from "./types.ts";

export type EuropePmcCtx = Pick<SourceContext, "upstream" | "signal">;

/** Europe PMC's largest page. */
export const MAX_PAGE_SIZE = 1000;

export interface SearchRequest {
  query: string;
  /** `*` for the first page, then the previous page's `nextCursor`. */
  cursor?: string;
  pageSize: number;
  /** Europe PMC sort, e.g. `CITED desc`, `P_PDATE_D desc`; relevance when absent. */
  sort?: string;
}

/**
 * @example (await searchEuropePmc(ctx, { query: "SRC:PPR AND malaria", pageSize: 10 })).page.records[0].preprint
 */
export async function searchEuropePmc(
  ctx: EuropePmcCtx,
  req: SearchRequest,
): Promise<{ page: EuropePmcPage; url: string }> {
  const response = await ctx.upstream.request({
    upstream: "europepmc",
    path: "/search",
    query: {
      query: req.query,
      resultType: "core",
      format: "json",
      pageSize: req.pageSize,
      cursorMark: req.cursor ?? "*",
      ...(req.sort ? { sort: req.sort } : {}),
    },
    accept: "application/json",
    signal: ctx.signal,
  });
  return { page: parseSearch(response.text(), response.url), url: response.url };
}

/** The first record a precise query (`DOI:"…"`, `EXT_ID:… AND SRC:MED`) finds, if any, and the URL asked. */
export async function findRecord(
  ctx: EuropePmcCtx,
  query: string,
): Promise<{ record?: EuropePmcRecord; url: string }> {
  const { page, url } = await searchEuropePmc(ctx, { query, pageSize: 1 });
  return { record: page.records[0], url };
}

/**
 * Open-access full text of a PMCID or preprint id; `article` is undefined when Europe PMC answers 404
 * (not open access there, or unknown: it does not say which).
 */
export async function europePmcFullText(
  ctx: EuropePmcCtx,
  id: string,
): Promise<{ article?: PmcArticle; url: string }> {
  try {
    const response = await ctx.upstream.request({
      upstream: "europepmc",
      path: `/${encodeURIComponent(id)}/fullTextXML`,
      accept: "application/xml",
      signal: ctx.signal,
    });
    return { article: (await parseBody(europePmcArticlesJob, response, [], ctx.signal))[0], url: response.url };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return { url: error.url };
    throw error;
  }
}
