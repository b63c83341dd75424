/**
 * The NCBI PMC ID Converter (PMID ↔ PMCID ↔ DOI). NCBI's rules apply: at most 3 requests/s (the converter
 * takes no API key, so a key does not raise it), `tool` and `email` identify the caller, at most 200 ids
 * per request. The documented www address answers with a redirect to pmc.ncbi.nlm.nih.gov.
 */
import type { PipelineSettings, UpstreamDef } from "../upstream/def.ts";
import type { NcbiSettings } from "./ncbi_eutils.ts";

export const ncbiIdconv: UpstreamDef<PipelineSettings & { ncbi: NcbiSettings }> = {
  name: "ncbi-idconv",
  title: "NCBI PMC ID Converter",
  baseUrl: {
    env: "NCBI_IDCONV_BASE_URL",
    default: "https://www.ncbi.nlm.nih.gov/pmc/utils/idconv/v1.0",
    description: "PMC ID Converter API base URL",
    mockPrefix: "idconv",
  },
  hosts: ["www.ncbi.nlm.nih.gov", "pmc.ncbi.nlm.nih.gov"],
  rate: ({ ncbi }) =>
    ncbi.requestDelayMs !== undefined ? { intervalMs: ncbi.requestDelayMs, marginPct: 0 } : { intervalMs: 334 },
  concurrency: 1,
  maxBodyBytes: 1024 ** 2, // a few hundred bytes per id
  maxRetries: ({ ncbi }) => ncbi.maxRetries,
  ttlMs: 24 * 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  credentials: ({ ncbi }) => ({ tool: ncbi.tool, email: ncbi.email }),
  secretParams: ["email"],
  recoveryHint: "Retry shortly; the PMC ID Converter may be busy. fetch_content source=pubmed also takes PMIDs.",
};
