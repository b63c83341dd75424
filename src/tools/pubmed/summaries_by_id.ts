/**
 * ESummary answers are matched to the PMIDs they were asked for by id, never by position: a summary
 * about another PMID (a stale search history, a cache mix-up, NCBI answering for a merged record) is
 * never shown as the requested one. A requested PMID without its summary gets `error`; summaries about
 * PMIDs nobody asked for are left out and named in a warning.
 */
import type { PubMedSummary } from "../../sources/ncbi/pubmed/types.ts";

export const NO_SUMMARY = "NCBI's ESummary answer did not include this PMID";

export interface MatchedSummaries {
  /** One per requested PMID, in the requested order. */
  summaries: PubMedSummary[];
  /** Set when the answer did not fit the request: what was missing, what was extra. */
  warning?: string;
}

/**
 * @example matchSummaries(["1", "2"], [{ pmid: "2", title: "B", authors: [], source: "" }])
 *   // summaries: [{ pmid: "1", …, error: NO_SUMMARY }, { pmid: "2", title: "B", … }], warning: "…1…"
 */
export function matchSummaries(requested: string[], answered: PubMedSummary[]): MatchedSummaries {
  const byId = new Map(answered.map((s) => [s.pmid, s]));
  const summaries = requested.map((pmid) =>
    byId.get(pmid) ?? { pmid, title: "", authors: [], source: "", error: NO_SUMMARY }
  );
  const wanted = new Set(requested);
  const missing = requested.filter((pmid) => !byId.has(pmid));
  const extra = [...byId.keys()].filter((pmid) => !wanted.has(pmid));
  if (missing.length === 0 && extra.length === 0) return { summaries };
  const parts = [
    missing.length ? `no summary for PMID ${list(missing)}` : "",
    extra.length ? `summaries for PMID ${list(extra)}, which were not asked for, were left out` : "",
  ].filter(Boolean);
  return { summaries, warning: `NCBI ESummary answered for other PMIDs than requested: ${parts.join("; ")}.` };
}

function list(pmids: string[]): string {
  return pmids.length > 10 ? `${pmids.slice(0, 10).join(", ")} and ${pmids.length - 10} more` : pmids.join(", ");
}
