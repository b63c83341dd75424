/**
 * Publisher landing pages and PDFs that OpenAlex links to: absolute URLs on many unrelated hosts, so one
 * queue per host, gently paced, and no default hosts in the confined permission sets.
 */
import type { UpstreamDef } from "../upstream/def.ts";

export const publisher: UpstreamDef = {
  name: "publisher",
  title: "Publisher links",
  mockPrefix: "publisher",
  hosts: [],
  rate: { intervalMs: 200 },
  concurrency: 2,
  maxRetries: 1,
  ttlMs: 24 * 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  perHost: true,
};
