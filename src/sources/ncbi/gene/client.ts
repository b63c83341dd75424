/**
 * NCBI Gene requests over the shared `ncbi-eutils` upstream (the same queue as PubMed), built by the one
 * E-utilities builder (../eutils/request.ts). Each function is one E-utilities request; the pipeline
 * paces, caches (per `ttlMs`), coalesces them and sends long id lists as POST.
 */
import { ToolError } from "../../../core/errors.ts";
import type { UpstreamResponse } from "../../../upstream/types.ts";
import type { ServiceRequest, ServiceUpstream } from "../../../upstreams/mod.ts";
import { linksFor, parseELink } from "../eutils/parse_elink.ts";
import { eutilsRequest } from "../eutils/request.ts";
import { type ESearchResult, parseESearch } from "../eutils/parse_esearch.ts";
import { parseBody } from "../../parse_off_thread.ts";
import { geneRecordJob } from "./parse_efetch_gene.ts";
import { parseGeneSummaries } from "./parse_esummary_gene.ts";
import type { GeneRecord, GeneSummary } from "./types.ts";
import { assertComplete } from "./xml_scan.ts";

const HOUR = 3_600_000;
/** Search pages change when NCBI reindexes (daily); an hour keeps paging consistent within a session. */
export const SEARCH_TTL_MS = HOUR;
/** Gene records and their links are rebuilt daily at NCBI. */
export const RECORD_TTL_MS = 24 * HOUR;

export interface GeneSearchRequest {
  /** Complete Entrez term, organism filter included. */
  term: string;
  offset: number;
  limit: number;
  signal?: AbortSignal;
}

function geneSearchRequest(req: GeneSearchRequest): ServiceRequest {
  return eutilsRequest({
    path: "/esearch.fcgi",
    params: { db: "gene", term: req.term, retstart: req.offset, retmax: req.limit },
    ttlMs: SEARCH_TTL_MS,
    signal: req.signal,
  });
}

export async function searchGeneIds(upstream: ServiceUpstream, req: GeneSearchRequest): Promise<ESearchResult> {
  const response = await upstream.request(geneSearchRequest(req));
  return parseComplete(response, "eSearchResult", parseESearch);
}

export function geneSummaryRequest(ids: string[], signal?: AbortSignal): ServiceRequest {
  const params = { db: "gene", id: ids.join(","), version: "2.0" };
  return eutilsRequest({ path: "/esummary.fcgi", params, ttlMs: SEARCH_TTL_MS, signal });
}

/** Summaries in NCBI's order; ids NCBI has no summary for are left out. */
export async function fetchGeneSummaries(
  upstream: ServiceUpstream,
  ids: string[],
  signal?: AbortSignal,
): Promise<GeneSummary[]> {
  if (ids.length === 0) return [];
  const response = await upstream.request(geneSummaryRequest(ids, signal));
  const summaries = parseGeneSummaries(response.text(), response.url);
  const wanted = new Set(ids);
  const strangers = summaries.filter((s) => !wanted.has(s.geneId)).map((s) => s.geneId);
  // A summary about a gene nobody asked for means the answer is not about this request at all.
  if (strangers.length) {
    throw new ToolError(
      "UPSTREAM_ERROR",
      `NCBI ESummary answered for gene id ${strangers.slice(0, 10).join(", ")}, which were not asked for.`,
      "Retry shortly; if it persists, NCBI may be serving a stale answer.",
    );
  }
  const byId = new Map(summaries.map((s) => [s.geneId, s]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function geneRecordRequest(geneId: string, signal?: AbortSignal): ServiceRequest {
  return eutilsRequest({
    path: "/efetch.fcgi",
    params: { db: "gene", id: geneId, retmode: "xml" },
    ttlMs: RECORD_TTL_MS,
    signal,
  });
}

/** The record, or undefined when NCBI has no gene with this id. A 15-26 MB record is parsed off the main thread. */
export async function fetchGeneRecord(
  upstream: ServiceUpstream,
  geneId: string,
  signal?: AbortSignal,
): Promise<GeneRecord | undefined> {
  const response = await upstream.request(geneRecordRequest(geneId, signal));
  return await parseBody(geneRecordJob, response, [geneId], signal);
}

function pubmedLinksRequest(geneId: string, signal?: AbortSignal): ServiceRequest {
  return eutilsRequest({
    path: "/elink.fcgi",
    params: { dbfrom: "gene", db: "pubmed", linkname: "gene_pubmed", id: geneId },
    ttlMs: RECORD_TTL_MS,
    signal,
  });
}

/**
 * Every PMID linked to the gene, in NCBI's order. ELink has no paging, so the whole list is one
 * (cached) request and pages are cut from it: page 2 costs no request.
 */
export async function fetchPubmedLinks(
  upstream: ServiceUpstream,
  geneId: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const response = await upstream.request(pubmedLinksRequest(geneId, signal));
  const sets = parseComplete(response, "eLinkResult", parseELink);
  const pmids = linksFor(sets, geneId, "gene_pubmed").map((link) => link.id);
  return [...new Set(pmids)];
}

/**
 * Runs a shared NCBI parser after checking the body ends with its closing root, so a cut-off answer is
 * reported as incomplete XML (the parser's own validation would reject it too, with a vaguer message).
 */
export function parseComplete<T>(response: UpstreamResponse, root: string, parse: (xml: string, url: string) => T): T {
  const xml = response.text();
  if (xml.trimStart().startsWith("<")) assertComplete(xml, [root], response.url);
  return parse(xml, response.url);
}
