/**
 * One table of upstream policies: pacing, concurrency, retries and cache lifetime per named upstream.
 * Numbers come from each service's published usage rules.
 */
import type { Config } from "../config.ts";
import { detectArxivThrottle, detectNcbiThrottle, detectPubchemThrottle, type ThrottleDetector } from "./throttle.ts";
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
  /** First step of the retry back-off and of the shared cool-down after a throttle signal. */
  backoffBaseMs: number;
  /** Ceiling of one back-off step or cool-down (also caps how long a Retry-After is waited out). */
  backoffMaxMs: number;
  /** Reads throttle signals that are not a 429 (a 200 body, a header); see throttle.ts. */
  detectThrottle?: ThrottleDetector;
  /**
   * 5xx statuses that mean "this request will never succeed as sent", so retrying only wastes the rate
   * budget (PubChem's 504 PUGREST.Timeout: the search is too broad; the adapter falls back to ListKey).
   */
  finalStatuses?: readonly number[];
  /** One queue per host rather than per name (publisher links point at many unrelated hosts). */
  perHost?: boolean;
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
      backoffBaseMs: 1000,
      backoffMaxMs: 30_000,
      detectThrottle: detectNcbiThrottle,
    },
    "ncbi-idconv": {
      name: "ncbi-idconv",
      // NCBI's 3 requests/s; the converter takes no API key, so a key does not raise it.
      intervalMs: config.ncbi.requestDelayMs ?? 334,
      concurrency: 1,
      maxRetries: config.ncbi.maxRetries,
      ttlMs: 24 * HOUR,
      baseUrl: config.baseUrls.ncbiIdconv,
      // The documented www address answers with a redirect to pmc.ncbi.nlm.nih.gov.
      hosts: ["www.ncbi.nlm.nih.gov", "pmc.ncbi.nlm.nih.gov"],
      backoffBaseMs: 1000,
      backoffMaxMs: 30_000,
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
      backoffBaseMs: 1000,
      backoffMaxMs: 30_000,
      detectThrottle: detectPubchemThrottle,
      finalStatuses: [504],
    },
    "arxiv-api": {
      name: "arxiv-api",
      intervalMs: 3000,
      concurrency: 1,
      maxRetries: 3,
      ttlMs: 15 * MINUTE,
      baseUrl: config.baseUrls.arxivApi,
      hosts: ["export.arxiv.org"],
      backoffBaseMs: 5000,
      backoffMaxMs: 60_000,
      detectThrottle: detectArxivThrottle,
    },
    "arxiv-web": {
      name: "arxiv-web",
      intervalMs: 1000,
      concurrency: 1,
      maxRetries: 2,
      ttlMs: 24 * HOUR,
      baseUrl: config.baseUrls.arxivWeb,
      hosts: ["arxiv.org", "ar5iv.labs.arxiv.org", "ar5iv.org"],
      backoffBaseMs: 2000,
      backoffMaxMs: 60_000,
      detectThrottle: detectArxivThrottle,
    },
    "openalex": {
      name: "openalex",
      intervalMs: 100,
      concurrency: 5,
      maxRetries: 3,
      ttlMs: HOUR,
      baseUrl: config.baseUrls.openalex,
      hosts: ["api.openalex.org"],
      backoffBaseMs: 1000,
      backoffMaxMs: 30_000,
    },
    "publisher": {
      name: "publisher",
      intervalMs: 200,
      concurrency: 2,
      maxRetries: 1,
      ttlMs: 24 * HOUR,
      baseUrl: "",
      hosts: [],
      backoffBaseMs: 1000,
      backoffMaxMs: 30_000,
      perHost: true,
    },
  };
}
