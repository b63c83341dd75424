/**
 * ECitMatch: PMIDs for citations given as `journal|year|volume|first page|author|key|` lines. NCBI answers
 * plain text, one line per citation with the PMID appended, or `NOT_FOUND` / `AMBIGUOUS` (with details
 * after `;`) in its place.
 */
import { type Fetched, fetchEutils } from "../eutils/request.ts";
import type { EutilsContext } from "./client.ts";

export interface CitationQuery {
  journal?: string;
  year?: string;
  volume?: string;
  firstPage?: string;
  /** "wakefield aj": surname and initials. */
  author?: string;
  /** Caller's key, echoed back. */
  key: string;
}

export type CitationMatch = { key: string; pmid: string } | { key: string; status: string };

/** The `bdata` line of one citation (pipes and line breaks inside fields would break the format). */
export function bdataLine(q: CitationQuery): string {
  const clean = (s?: string) => (s ?? "").replace(/[|\r\n]+/g, " ").trim().toLowerCase();
  return [q.journal, q.year, q.volume, q.firstPage, q.author, q.key].map(clean).join("|") + "|";
}

/** Reads the answer; lines it cannot read are skipped (their keys then have no match). */
export function parseECitMatch(body: string): CitationMatch[] {
  const out: CitationMatch[] = [];
  for (const line of body.split(/\r?\n/)) {
    const f = line.split("|");
    if (f.length < 7) continue;
    const key = f[5].trim();
    const result = f[6].trim();
    out.push(/^\d+$/.test(result) ? { key, pmid: result } : { key, status: result || "NOT_FOUND" });
  }
  return out;
}

export async function eCitMatch(
  ctx: EutilsContext,
  queries: readonly CitationQuery[],
): Promise<Fetched<CitationMatch[]>> {
  const params = { db: "pubmed", retmode: "xml", bdata: queries.map(bdataLine).join("\r") };
  return await fetchEutils(ctx.upstream, { path: "/ecitmatch.cgi", params, signal: ctx.signal }, parseECitMatch);
}
