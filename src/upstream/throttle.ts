/**
 * Throttle signals that do not look like a 429. Some upstreams say "slow down" in a 200 body or in a
 * header; a pipeline that only watches status codes would hand "Rate exceeded." to an XML parser and
 * report an empty result. The policy table attaches one detector per upstream.
 *
 * Sources: arXiv API terms of use (one request every 3 s; throttled clients get HTTP 200 `Rate exceeded.`),
 * NCBI E-utilities usage guidelines (3 req/s, 10 with an API key; over-limit answers carry
 * `API rate limit exceeded` as JSON or as `<ERROR>`), PubChem "Dynamic Request Throttling" (the
 * `X-Throttling-Control` header: Green < 50 %, Yellow 50–75 %, Red > 75 %, Black = blocked; over-limit
 * requests get HTTP 503, PUG REST fault `PUGREST.ServerBusy`).
 */

/** What a detector may look at: status, headers and the start of the body. */
export interface ResponseProbe {
  status: number;
  headers: Headers;
  /** The first {@link PROBE_BYTES} of the body, decoded as UTF-8. */
  head: string;
}

export interface ThrottleVerdict {
  /** Set when the response is a refusal to be treated like a 429; names what was seen. */
  throttled?: string;
  /** Spacing factor the upstream's pressure asks for (1 = back to normal); unset = no information. */
  slowdown?: number;
}

export type ThrottleDetector = (probe: ResponseProbe) => ThrottleVerdict;

/** How much of a body detectors see: throttle answers are short, and real payloads are never scanned whole. */
export const PROBE_BYTES = 1024;

/** arXiv (export API and web pages): `Rate exceeded.` with HTTP 200. */
export function detectArxivThrottle(probe: ResponseProbe): ThrottleVerdict {
  return /^\s*Rate exceeded\.?\s*$/i.test(probe.head) ? { throttled: '"Rate exceeded." (HTTP 200)' } : {};
}

const NCBI_LIMIT = /"error"\s*:\s*"API rate limit exceeded"|<ERROR>\s*API rate limit exceeded\s*<\/ERROR>/i;

/** NCBI E-utilities: `{"error":"API rate limit exceeded",...}` or `<ERROR>API rate limit exceeded</ERROR>`. */
export function detectNcbiThrottle(probe: ResponseProbe): ThrottleVerdict {
  if (!NCBI_LIMIT.test(probe.head)) return {};
  return { throttled: `"API rate limit exceeded" (HTTP ${probe.status})` };
}

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

/** PubChem: slows down on Yellow/Red, treats Black and a `PUGREST.ServerBusy` fault as a 429. */
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
