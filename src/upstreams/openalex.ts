/**
 * OpenAlex REST API. An API key is required since February 2026 (a daily credit budget); `mailto` names
 * a contact. Over-limit answers are plain 429s.
 */
import type { PipelineSettings, UpstreamDef } from "../upstream/def.ts";

/** The configuration this upstream reads (OPENALEX_* variables). */
/** OpenAlex's settings. */
export interface OpenAlexSettings {
  /** OPENALEX_API_KEY. */
  apiKey?: string;
  /** OPENALEX_MAILTO. */
  mailto?: string;
}

export const openalex: UpstreamDef<PipelineSettings & { openalex: OpenAlexSettings }> = {
  name: "openalex",
  title: "OpenAlex",
  baseUrl: {
    env: "OPENALEX_BASE_URL",
    default: "https://api.openalex.org",
    description: "OpenAlex API base URL",
    mockPrefix: "openalex",
  },
  hosts: ["api.openalex.org"],
  /** The seed paces every host at 5 requests/s at most (OpenAlex itself allows 10). */
  rate: { intervalMs: 200 },
  concurrency: 5,
  maxBodyBytes: 16 * 1024 ** 2, // a page of 200 works is 2–6 MB
  maxRetries: 3,
  ttlMs: 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  credentials: ({ openalex }) => ({ api_key: openalex.apiKey, mailto: openalex.mailto }),
  secretParams: ["api_key", "mailto"],
  contact: ({ openalex }) => openalex.mailto,
  throttleHint: ({ openalex }) => openalex.apiKey ? "" : " or set OPENALEX_API_KEY",
  recoveryHint: "Retry shortly; OpenAlex may be busy or down.",
  rateLimitHint: ({ openalex }) =>
    openalex.apiKey
      ? "Wait, then retry; OpenAlex limits requests per second and credits per day."
      : "Wait, then retry; set OPENALEX_API_KEY (required by OpenAlex since February 2026).",
};
