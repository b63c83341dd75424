/**
 * PubMed requests on the `ncbi-eutils` upstream: ESearch, ESummary (version 2.0), EFetch, ELink and EInfo
 * for db=pubmed. Builds each request, picks GET or POST, and returns parsed records with the redacted URL
 * that produced them. Credentials (tool, email, api_key) are added by the upstream pipeline, not here.
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import type { ToolContext } from "../../core/tool_def.ts";
import type { UpstreamRequest, UpstreamResponse } from "../../upstream/types.ts";
import { type EInfoDb, parseEInfo } from "./parse_einfo.ts";
import { type ELinkLink, parseELink } from "./parse_elink.ts";
import { type ESearchResult, parseESearch } from "./parse_esearch.ts";
import { parseESummaryPubMed } from "./parse_esummary_pubmed.ts";
import type { PubMedSummary } from "./pubmed_types.ts";

export type EutilsContext = Pick<ToolContext, "upstream" | "signal">;
type Params = Record<string, string | number | undefined>;

/** GET URLs longer than this go as POST: some proxies cut URLs near 2 KB, and NCBI asks for POST with many ids. */
export const MAX_GET_URL_CHARS = 2000;
/** Id lists longer than this always go as POST. */
export const MAX_GET_IDS = 50;
/** EInfo changes once a day at most. */
export const EINFO_TTL_MS = 12 * 60 * 60 * 1000;

export interface Fetched<T> {
  value: T;
  url: string;
  method: "GET" | "POST";
}

export interface ESearchParams {
  term: string;
  retmax: number;
  /** First PMID to return (paging); 0 when absent. */
  retstart?: number;
  sort?: string;
  datetype?: string;
  mindate?: string;
  maxdate?: string;
  useHistory: boolean;
}

export async function eSearch(ctx: EutilsContext, p: ESearchParams): Promise<Fetched<ESearchResult>> {
  const params: Params = {
    db: "pubmed",
    term: p.term,
    retmax: p.retmax,
    retstart: p.retstart ?? 0,
    sort: p.sort,
    datetype: p.mindate || p.maxdate ? p.datetype : undefined,
    mindate: p.mindate,
    maxdate: p.maxdate,
    usehistory: p.useHistory ? "y" : undefined,
    retmode: "xml",
  };
  return await call(ctx, "/esearch.fcgi", params, false, parseESearch, "INVALID_INPUT");
}

export async function eSummaryFromHistory(
  ctx: EutilsContext,
  webEnv: string,
  queryKey: string,
  retmax: number,
): Promise<Fetched<PubMedSummary[]>> {
  const params = { db: "pubmed", version: "2.0", WebEnv: webEnv, query_key: queryKey, retstart: 0, retmax };
  return await call(ctx, "/esummary.fcgi", params, false, parseESummaryPubMed);
}

export async function eSummaryByIds(ctx: EutilsContext, ids: readonly string[]): Promise<Fetched<PubMedSummary[]>> {
  const params = { db: "pubmed", version: "2.0", id: ids.join(",") };
  return await call(ctx, "/esummary.fcgi", params, ids.length > MAX_GET_IDS, parseESummaryPubMed);
}

/** EFetch db=pubmed: `xml` (PubmedArticleSet) or `medline` (MEDLINE tagged text). Returns the raw body. */
export async function eFetch(
  ctx: EutilsContext,
  ids: readonly string[],
  format: "xml" | "medline",
): Promise<Fetched<string>> {
  const params: Params = format === "xml"
    ? { db: "pubmed", id: ids.join(","), retmode: "xml" }
    : { db: "pubmed", id: ids.join(","), rettype: "medline", retmode: "text" };
  return await call(ctx, "/efetch.fcgi", params, ids.length > MAX_GET_IDS, (body) => body);
}

export type LinkKind = "similar" | "citedin" | "refs";
const LINK_NAMES: Record<LinkKind, string> = {
  similar: "pubmed_pubmed",
  citedin: "pubmed_pubmed_citedin",
  refs: "pubmed_pubmed_refs",
};

/** ELink pubmed→pubmed; `similar` uses cmd=neighbor_score so each neighbour carries its real score. */
export async function eLink(ctx: EutilsContext, pmid: string, kind: LinkKind): Promise<Fetched<ELinkLink[]>> {
  const linkName = LINK_NAMES[kind];
  const params: Params = {
    dbfrom: "pubmed",
    db: "pubmed",
    id: pmid,
    cmd: kind === "similar" ? "neighbor_score" : "neighbor",
    linkname: linkName,
    retmode: "xml",
  };
  return await call(ctx, "/elink.fcgi", params, false, (body, url) => {
    const sets = parseELink(body, url);
    return sets.flatMap((set) => set.links[linkName] ?? []);
  });
}

export async function eInfo(ctx: EutilsContext): Promise<Fetched<EInfoDb>> {
  return await call(
    ctx,
    "/einfo.fcgi",
    { db: "pubmed", retmode: "xml" },
    false,
    parseEInfo,
    "UPSTREAM_ERROR",
    EINFO_TTL_MS,
  );
}

/** The request a call would send: GET unless forced or too long for a URL, then POST with a form body. */
export function buildRequest(
  ctx: Pick<EutilsContext, "upstream">,
  path: string,
  params: Params,
  forcePost: boolean,
): UpstreamRequest {
  const get: UpstreamRequest = { upstream: "ncbi-eutils", path, query: params, method: "GET" };
  if (!forcePost && ctx.upstream.describe(get).length <= MAX_GET_URL_CHARS) return get;
  return { upstream: "ncbi-eutils", path, form: params, method: "POST" };
}

async function call<T>(
  ctx: EutilsContext,
  path: string,
  params: Params,
  forcePost: boolean,
  parse: (body: string, url: string) => T,
  faultCode: "INVALID_INPUT" | "UPSTREAM_ERROR" = "UPSTREAM_ERROR",
  ttlMs?: number,
): Promise<Fetched<T>> {
  const request = { ...buildRequest(ctx, path, params, forcePost), signal: ctx.signal, ttlMs };
  let response: UpstreamResponse;
  try {
    response = await ctx.upstream.request(request);
  } catch (error) {
    throw structuredFault(error, path, faultCode) ?? error;
  }
  return { value: parse(response.text(), response.url), url: response.url, method: request.method ?? "GET" };
}

/** NCBI sometimes answers a bad request with HTTP 4xx and an `<ERROR>` body: that message is the useful one. */
function structuredFault(
  error: unknown,
  path: string,
  code: "INVALID_INPUT" | "UPSTREAM_ERROR",
): ToolError | undefined {
  if (!(error instanceof UpstreamError) || !error.status || error.status >= 500 || error.status === 429) return;
  const message = /<ERROR>([\s\S]*?)<\/ERROR>/.exec(error.body ?? "")?.[1]?.trim();
  if (!message) return;
  const utility = path.replace(/^\/|\.fcgi$/g, "");
  return new ToolError(
    code,
    `NCBI ${utility} rejected the request (HTTP ${error.status}): ${message}`,
    code === "INVALID_INPUT"
      ? "Check the query syntax (field tags such as [MeSH Terms], quotes, boolean operators) and retry."
      : "Check the identifiers and retry; if it persists NCBI may be degraded.",
    { cause: error },
  );
}
