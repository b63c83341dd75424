/**
 * arXiv web pages (abs, html, pdf) and their ar5iv renderings: one polite queue for both sites, since
 * ar5iv is run by arXiv. Throttled answers look like the API's (`Rate exceeded.` with HTTP 200).
 */
import type { UpstreamDef } from "../upstream/def.ts";
import { detectArxivThrottle } from "./arxiv_api.ts";

export const arxivWeb: UpstreamDef = {
  name: "arxiv-web",
  title: "arXiv web pages and ar5iv",
  baseUrl: {
    env: "ARXIV_WEB_BASE_URL",
    default: "https://arxiv.org",
    description: "arXiv web base URL (abs, html, pdf pages)",
    mockPrefix: "arxiv-web",
  },
  extraBaseUrls: {
    ar5iv: {
      env: "AR5IV_BASE_URL",
      default: "https://ar5iv.labs.arxiv.org",
      description: "ar5iv base URL",
      mockPrefix: "ar5iv",
    },
  },
  hosts: ["arxiv.org", "ar5iv.labs.arxiv.org", "ar5iv.org"],
  rate: { intervalMs: 1000 },
  concurrency: 1,
  maxRetries: 2,
  ttlMs: 24 * 60 * 60_000,
  backoff: { baseMs: 2000, maxMs: 60_000 },
  detectThrottle: detectArxivThrottle,
};
