/**
 * PubChem PUG REST and PUG View. "Dynamic Request Throttling": at most 5 requests/s and 400/min; the
 * `X-Throttling-Control` header reports pressure (Green < 50 %, Yellow 50–75 %, Red > 75 %, Black =
 * blocked); over-limit requests get HTTP 503 with the fault `PUGREST.ServerBusy`.
 */
import type { UpstreamDef } from "../upstream/def.ts";
import type { ResponseProbe, ThrottleVerdict } from "../upstream/throttle.ts";

const LEVELS: Record<string, number> = { green: 1, yellow: 2, red: 4, black: 8 };

/**
 * The worst colour in an `X-Throttling-Control` header as a spacing factor: Green 1, Yellow 2, Red 4,
 * Black 8. Undefined when the header is absent or unreadable.
 *
 * @example
 * throttlingFactor("Request Count status: Yellow (60%), Request Time status: Green (10%), Service status: Green (20%)") // 2
 */
export function throttlingFactor(header: string | null): number | undefined {
  if (!header) return undefined;
  let worst: number | undefined;
  for (const match of header.matchAll(/status:\s*(green|yellow|red|black)\b/gi)) {
    worst = Math.max(worst ?? 1, LEVELS[match[1].toLowerCase()]);
  }
  return worst;
}

/** Slows down on Yellow/Red, treats Black and a `PUGREST.ServerBusy` fault as a 429. */
export function detectPubchemThrottle(probe: ResponseProbe): ThrottleVerdict {
  const verdict: ThrottleVerdict = {};
  const factor = throttlingFactor(probe.headers.get("x-throttling-control"));
  if (factor !== undefined) verdict.slowdown = factor;
  if (factor === LEVELS.black) verdict.throttled = "X-Throttling-Control status Black";
  if (probe.status === 503 && /PUGREST\.ServerBusy/.test(probe.head)) {
    verdict.throttled = "PUGREST.ServerBusy (HTTP 503)";
  }
  return verdict;
}

export const pubchem: UpstreamDef = {
  name: "pubchem",
  title: "PubChem",
  baseUrl: {
    env: "PUBCHEM_BASE_URL",
    default: "https://pubchem.ncbi.nlm.nih.gov/rest",
    description: "PubChem REST base URL (pug and pug_view live below it)",
    mockPrefix: "pubchem",
  },
  hosts: ["pubchem.ncbi.nlm.nih.gov"],
  rate: { intervalMs: 200, perMinute: 400 },
  concurrency: 5,
  maxRetries: 3,
  ttlMs: 24 * 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  detectThrottle: detectPubchemThrottle,
  // 504 PUGREST.Timeout: the search is too broad and will time out again; the adapter falls back to ListKey.
  finalStatuses: [504],
  throttleHint: () => " (PubChem allows 5 requests/s and 400/min)",
  rateLimitHint: () => "PubChem allows 5 requests/s and 400/min; wait, then retry.",
};
