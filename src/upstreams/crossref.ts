/**
 * Crossref REST API: DOI metadata and the `update-to` / `updated-by` relations that carry retraction
 * notices. Keyless; a `mailto` puts requests in the "polite" pool (documented 10 requests/s, 3 at once
 * for single-work lookups in the public pool, so the definition stays under both).
 */
import type { PipelineSettings, UpstreamDef } from "../upstream/def.ts";

/** The configuration this upstream reads (CROSSREF_* variables). */
/** Crossref's settings. */
export interface CrossrefSettings {
  /** CROSSREF_MAILTO, sent as `mailto` (Crossref's polite pool). */
  mailto?: string;
}

export const crossref: UpstreamDef<PipelineSettings & { crossref: CrossrefSettings }> = {
  name: "crossref",
  title: "Crossref",
  baseUrl: {
    env: "CROSSREF_BASE_URL",
    default: "https://api.crossref.org",
    description: "Crossref REST API base URL",
    mockPrefix: "crossref",
  },
  hosts: ["api.crossref.org"],
  rate: { intervalMs: 200 },
  concurrency: 3,
  maxRetries: 3,
  ttlMs: 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  credentials: ({ crossref }) => ({ mailto: crossref.mailto }),
  secretParams: ["mailto"],
  contact: ({ crossref }) => crossref.mailto,
  throttleHint: ({ crossref }) => crossref.mailto ? "" : " or set CROSSREF_MAILTO (Crossref's polite pool)",
  recoveryHint: "Retry shortly; Crossref may be busy or down.",
};
