/**
 * PubMed requests on the `ncbi-eutils` upstream: ESearch, ESummary (version 2.0), EFetch, ELink and EInfo
 * for db=pubmed, through the shared E-utilities builder (../eutils/request.ts). Each returns parsed records
 * with the redacted URL and the method that produced them.
 */
import type { SourceContext } from "../../../context.ts";
import { type EInfoDb, parseEInfo } from "../eutils/parse_einfo.ts";
import { type ELinkLink, linksFor, parseELink } from "../eutils/parse_elink.ts";
import { type ESearchResult, parseESearch } from "../eutils/parse_esearch.ts";
import { type EutilsParams, type Fetched, fetchEutils } from "../eutils/request.ts";
import { pubmedArticlesJob } from "./parse_efetch.ts";
import { parseESummaryPubMed } from "./parse_esummary.ts";
import type { PubMedArticle, PubMedSummary } from "./types.ts";

export type { Fetched };
export type EutilsContext = Pick<SourceContext, "upstream" | "signal">;

/** EInfo changes once a day at most. */
export const EINFO_TTL_MS = 12 * 60 * 60 * 1000;

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
  const params: EutilsParams = {
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
  return await fetchEutils(
    ctx.upstream,
    { path: "/esearch.fcgi", params, signal: ctx.signal },
    parseESearch,
    "INVALID_INPUT",
  );
}

export async function eSummaryFromHistory(
  ctx: EutilsContext,
  webEnv: string,
  queryKey: string,
  retmax: number,
  retstart = 0,
): Promise<Fetched<PubMedSummary[]>> {
  const params = { db: "pubmed", version: "2.0", WebEnv: webEnv, query_key: queryKey, retstart, retmax };
  return await fetchEutils(ctx.upstream, { path: "/esummary.fcgi", params, signal: ctx.signal }, parseESummaryPubMed);
}

export async function eSummaryByIds(ctx: EutilsContext, ids: readonly string[]): Promise<Fetched<PubMedSummary[]>> {
  const params = { db: "pubmed", version: "2.0", id: ids.join(",") };
  return await fetchEutils(ctx.upstream, { path: "/esummary.fcgi", params, signal: ctx.signal }, parseESummaryPubMed);
}

/** EFetch db=pubmed: `xml` (PubmedArticleSet) or `medline` (MEDLINE tagged text). Returns the raw body. */
export async function eFetch(
  ctx: EutilsContext,
  ids: readonly string[],
  format: "xml" | "medline",
): Promise<Fetched<string>> {
  const params: EutilsParams = format === "xml"
    ? { db: "pubmed", id: ids.join(","), retmode: "xml" }
    : { db: "pubmed", id: ids.join(","), rettype: "medline", retmode: "text" };
  return await fetchEutils(ctx.upstream, { path: "/efetch.fcgi", params, signal: ctx.signal }, (body) => body);
}

/** EFetch db=pubmed retmode=xml, parsed: a 200-record answer (megabytes) is parsed off the main thread. */
export async function eFetchArticles(ctx: EutilsContext, ids: readonly string[]): Promise<Fetched<PubMedArticle[]>> {
  const params: EutilsParams = { db: "pubmed", id: ids.join(","), retmode: "xml" };
  return await fetchEutils(ctx.upstream, { path: "/efetch.fcgi", params, signal: ctx.signal }, pubmedArticlesJob);
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
  const params: EutilsParams = {
    dbfrom: "pubmed",
    db: "pubmed",
    id: pmid,
    cmd: kind === "similar" ? "neighbor_score" : "neighbor",
    linkname: linkName,
    retmode: "xml",
  };
  return await fetchEutils(ctx.upstream, { path: "/elink.fcgi", params, signal: ctx.signal }, (body, url) => {
    return linksFor(parseELink(body, url), pmid, linkName);
  });
}

export async function eInfo(ctx: EutilsContext): Promise<Fetched<EInfoDb>> {
  const call = {
    path: "/einfo.fcgi",
    params: { db: "pubmed", retmode: "xml" },
    ttlMs: EINFO_TTL_MS,
    signal: ctx.signal,
  };
  return await fetchEutils(ctx.upstream, call, parseEInfo);
}
