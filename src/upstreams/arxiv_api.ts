/**
 * The arXiv export API (Atom search and id lookup). Terms of use: one request every 3 s, one connection;
 * a throttled client gets HTTP 200 with the body `Rate exceeded.`
 */
import type { UpstreamDef } from "../upstream/def.ts";
import type { ResponseProbe, ThrottleVerdict } from "../upstream/throttle.ts";

/** arXiv (export API and web pages): `Rate exceeded.` with HTTP 200. */
export function detectArxivThrottle(probe: ResponseProbe): ThrottleVerdict {
  return /^\s*Rate exceeded\.?\s*$/i.test(probe.head) ? { throttled: '"Rate exceeded." (HTTP 200)' } : {};
}

export const arxivApi: UpstreamDef = {
  name: "arxiv-api",
  title: "arXiv API",
  baseUrl: {
    env: "ARXIV_API_BASE_URL",
    default: "https://export.arxiv.org/api",
    description: "arXiv API base URL",
    mockPrefix: "arxiv-api",
  },
  hosts: ["export.arxiv.org"],
  rate: { intervalMs: 3000 },
  concurrency: 1,
  maxBodyBytes: 8 * 1024 ** 2, // an Atom page of 100 entries is ~0.3 MB
  maxRetries: 3,
  ttlMs: 15 * 60_000,
  backoff: { baseMs: 5000, maxMs: 60_000 },
  detectThrottle: detectArxivThrottle,
  throttleHint: () => " (arXiv allows one API request every 3 s)",
  recoveryHint: "Retry in a few seconds; the arXiv API may be busy or down.",
  rateLimitHint: () => "arXiv allows one API request every 3 s; retry in a few seconds.",
};
