/**
 * NCBI E-utilities (PubMed and Gene share this one queue). Usage guidelines: 3 requests/s, 10 with an
 * API key; `tool` and `email` identify the caller; over-limit answers carry `API rate limit exceeded` as
 * JSON or as `<ERROR>`, sometimes with HTTP 200.
 */
import type { PipelineSettings, UpstreamDef } from "../upstream/def.ts";
import type { ResponseProbe, ThrottleVerdict } from "../upstream/throttle.ts";

/** The configuration this upstream reads (NCBI_* variables). */
export interface NcbiSettings {
  apiKey?: string;
  email?: string;
  tool: string;
  /** Operator's explicit spacing (NCBI_REQUEST_DELAY_MS): used as is, without the safety margin. */
  requestDelayMs?: number;
  maxRetries: number;
}

const LIMIT = /"error"\s*:\s*"API rate limit exceeded"|<ERROR>\s*API rate limit exceeded\s*<\/ERROR>/i;

/** `{"error":"API rate limit exceeded",...}` or `<ERROR>API rate limit exceeded</ERROR>`, whatever the status. */
export function detectNcbiThrottle(probe: ResponseProbe): ThrottleVerdict {
  if (!LIMIT.test(probe.head)) return {};
  return { throttled: `"API rate limit exceeded" (HTTP ${probe.status})` };
}

export const ncbiEutils: UpstreamDef<PipelineSettings & { ncbi: NcbiSettings }> = {
  name: "ncbi-eutils",
  title: "NCBI E-utilities",
  baseUrl: {
    env: "NCBI_EUTILS_BASE_URL",
    default: "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
    description: "E-utilities base URL",
    mockPrefix: "ncbi",
  },
  hosts: ["eutils.ncbi.nlm.nih.gov"],
  rate: ({ ncbi }) =>
    ncbi.requestDelayMs !== undefined
      ? { intervalMs: ncbi.requestDelayMs, marginPct: 0 }
      : { intervalMs: ncbi.apiKey ? 100 : 334 },
  concurrency: 3,
  maxRetries: ({ ncbi }) => ncbi.maxRetries,
  ttlMs: 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  credentials: ({ ncbi }) => ({ tool: ncbi.tool, email: ncbi.email, api_key: ncbi.apiKey }),
  secretParams: ["email", "api_key"],
  contact: ({ ncbi }) => ncbi.email,
  detectThrottle: detectNcbiThrottle,
  throttleHint: ({ ncbi }) => ncbi.apiKey ? "" : " or set NCBI_API_KEY for 10 requests/s",
  recoveryHint: "Retry shortly; NCBI E-utilities may be busy or down.",
  rateLimitHint: ({ ncbi }) =>
    ncbi.apiKey
      ? "NCBI allows 10 requests/s with this key; wait, then retry."
      : "Wait, then retry; set NCBI_API_KEY to raise the NCBI limit from 3 to 10 requests/s.",
  // NCBI asks for POST above about 200 ids; 2000 characters is where some proxies start cutting URLs.
  postAboveUrlChars: 2000,
};
