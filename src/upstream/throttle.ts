/**
 * Throttle signals that do not look like a 429. Some upstreams say "slow down" in a 200 body or in a
 * header; a pipeline that only watches status codes would hand "Rate exceeded." to a parser and report
 * an empty result. Each upstream definition may carry one detector (src/upstreams/).
 */

/** What a detector may look at: status, headers and the start of the body. */
export interface ResponseProbe {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The first {@link PROBE_BYTES} of the body, decoded as UTF-8. */
  head: string;
}

/** What a detector concluded. */
export interface ThrottleVerdict {
  /** Set when the response is a refusal to be treated like a 429; names what was seen. */
  throttled?: string;
  /** Spacing factor the upstream's pressure asks for (1 = back to normal); unset = no information. */
  slowdown?: number;
}

/** Reads throttle signals that are not a 429 (a 200 body, a header). */
export type ThrottleDetector = (probe: ResponseProbe) => ThrottleVerdict;

/** How much of a body detectors see: throttle answers are short, and real payloads are never scanned whole. */
export const PROBE_BYTES = 1024;
