/**
 * One table of upstream policies: pacing, concurrency, retries and cache lifetime per named upstream.
 * Numbers come from each service's published usage rules.
 */
import type { Config } from "../config.ts";
import type { UpstreamName } from "./types.ts";

export interface UpstreamPolicy {
  name: UpstreamName;
  /** Minimum spacing between two request starts (the rate). */
  intervalMs: number;
  /** Optional second window: at most this many requests in any 60 s (PubChem: 400/min). */
  perMinute?: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Retries after the first attempt (429, 5xx, network). Each retry waits for a new permit. */
  maxRetries: number;
  /** Default cache lifetime of a successful response; 0 = never cached. */
  ttlMs: number;
  /** Base URL that `path` is appended to. */
  baseUrl: string;
  /** Hosts the default permission sets grant for this upstream. */
  hosts: string[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export function upstreamPolicies(config: Config): Record<UpstreamName, UpstreamPolicy> {
  const ncbiInterval = config.ncbi.requestDelayMs ?? (config.ncbi.apiKey ? 100 : 334);
  return {
    "ncbi-eutils": {
      name: "ncbi-eutils",
      intervalMs: ncbiInterval,
      concurrency: 3,
      maxRetries: config.ncbi.maxRetries,
      ttlMs: HOUR,
      baseUrl: config.baseUrls.ncbiEutils,
      hosts: ["eutils.ncbi.nlm.nih.gov"],
    },
    "pubchem": {
      name: "pubchem",
      intervalMs: 200,
      perMinute: 400,
      concurrency: 5,
      maxRetries: 3,
      ttlMs: 24 * HOUR,
      baseUrl: config.baseUrls.pubchem,
      hosts: ["pubchem.ncbi.nlm.nih.gov"],
    },
    "arxiv-api": {
      name: "arxiv-api",
      intervalMs: 3000,
      concurrency: 1,
      maxRetries: 3,
      ttlMs: 15 * MINUTE,
      baseUrl: config.baseUrls.arxivApi,
      hosts: ["export.arxiv.org"],
    },
    "arxiv-web": {
      name: "arxiv-web",
      intervalMs: 1000,
      concurrency: 1,
      maxRetries: 2,
      ttlMs: 24 * HOUR,
      baseUrl: config.baseUrls.arxivWeb,
      hosts: ["arxiv.org", "ar5iv.labs.arxiv.org", "ar5iv.org"],
    },
    "openalex": {
      name: "openalex",
      intervalMs: 100,
      concurrency: 5,
      maxRetries: 3,
      ttlMs: HOUR,
      baseUrl: config.baseUrls.openalex,
      hosts: ["api.openalex.org"],
    },
    "publisher": {
      name: "publisher",
      intervalMs: 200,
      concurrency: 2,
      maxRetries: 1,
      ttlMs: 24 * HOUR,
      baseUrl: "",
      hosts: [],
    },
  };
}
