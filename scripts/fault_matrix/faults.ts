/**
 * The faults of the matrix: each is something a real upstream does (see scripts/mock_upstream/faults.ts
 * for the text forms), armed on every mock prefix the tool talks to. "Storms" hit every request, so the
 * only right answer is a specific error envelope; "blips" hit the first request of each prefix only, so
 * the right answer is the un-faulted result after paced retries.
 */
import type { ErrorCode } from "../../src/core/errors.ts";
import { ALL_ROUTES } from "../mock_routes/mod.ts";
import type { MockPrefix, MockRoute } from "../mock_routes/types.ts";

export type Expectation = "error" | "recover";

export interface FaultCase {
  /** Column name in the outcome table. */
  id: string;
  label: string;
  /** Mock fault in text form; absent for the matrix's own body rewrites. */
  spec?: string;
  /** The matrix's own faults: the recorded answer, rewritten (see {@link rewrittenRoutes}). */
  rewrite?: Rewrite;
  /** Faulted requests per prefix; undefined = all of them (a storm). */
  times?: number;
  expect: Expectation;
  /** Codes that describe this fault; another non-INTERNAL code passes but is listed as questionable. */
  codes: readonly ErrorCode[];
}

export interface FaultTiming {
  /** UPSTREAM_TIMEOUT_MS (simulated time: stalls and trickles are measured against it, never the machine). */
  timeoutMs: number;
  /** Size of the over-the-cap body (must exceed UPSTREAM_MAX_BYTES). */
  oversizeBytes: number;
  /** Size of the junk body that stays under the cap (it reaches the parsers). */
  junkBytes: number;
}

const GARBAGE: readonly ErrorCode[] = ["UPSTREAM_ERROR", "NOT_AVAILABLE"];

export function faultCases(t: FaultTiming): FaultCase[] {
  const stall = Math.ceil(t.timeoutMs * 2.5);
  const trickle = Math.ceil(t.timeoutMs / 4);
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MiB`;
  return [
    { id: "429", label: "429 storm, no Retry-After", spec: "429", expect: "error", codes: ["RATE_LIMITED"] },
    {
      id: "429-ra1",
      label: "429 storm, Retry-After: 1",
      spec: "429;retry-after=1",
      expect: "error",
      codes: ["RATE_LIMITED"],
    },
    {
      id: "429-ra120",
      label: "429 storm, Retry-After: 120 (beyond the back-off ceiling)",
      spec: "429;retry-after=120",
      expect: "error",
      codes: ["RATE_LIMITED"],
    },
    { id: "500", label: "HTTP 500 storm", spec: "500", expect: "error", codes: ["UPSTREAM_ERROR"] },
    { id: "502", label: "HTTP 502 storm", spec: "502", expect: "error", codes: ["UPSTREAM_ERROR"] },
    // PubChem documents 503 as "ServerBusy: too many requests or server too busy": RATE_LIMITED fits too.
    { id: "503", label: "HTTP 503 storm", spec: "503", expect: "error", codes: ["UPSTREAM_ERROR", "RATE_LIMITED"] },
    {
      id: "busy",
      label: "PubChem ServerBusy fault (503 JSON)",
      spec: "pubchem-busy",
      expect: "error",
      codes: ["UPSTREAM_ERROR", "RATE_LIMITED"],
    },
    {
      id: "reset",
      label: "connection dropped mid-response",
      spec: "reset",
      expect: "error",
      codes: ["UPSTREAM_ERROR"],
    },
    {
      id: "stall",
      label: `no answer for ${stall} ms (timeout ${t.timeoutMs} ms)`,
      spec: `delay=${stall}`,
      expect: "error",
      codes: ["UPSTREAM_ERROR"],
    },
    {
      id: "trickle",
      label: `body trickled in 8 chunks ${trickle} ms apart (past the timeout)`,
      spec: `slow=${trickle}`,
      expect: "error",
      codes: ["UPSTREAM_ERROR"],
    },
    {
      id: "trunc",
      label: "body cut at half its declared length",
      spec: "truncate",
      expect: "error",
      codes: ["UPSTREAM_ERROR"],
    },
    {
      id: "halfdoc",
      label: "recorded body cut in half, sent complete with HTTP 200",
      rewrite: "half",
      expect: "error",
      codes: GARBAGE,
    },
    {
      id: "malformed",
      label: "recorded body with garbage spliced into its middle (HTTP 200)",
      rewrite: "splice",
      expect: "error",
      codes: GARBAGE,
    },
    { id: "html", label: "HTML error page with HTTP 200", spec: "html", expect: "error", codes: GARBAGE },
    {
      id: "rate-200",
      label: "`Rate exceeded.` with HTTP 200",
      spec: "rate-exceeded",
      expect: "error",
      codes: ["RATE_LIMITED", ...GARBAGE],
    },
    {
      id: "ncbi-json",
      label: "NCBI rate-limit JSON with HTTP 200",
      spec: "ncbi-rate-limit",
      expect: "error",
      codes: ["RATE_LIMITED", ...GARBAGE],
    },
    { id: "empty", label: "empty body with HTTP 200", spec: "empty", expect: "error", codes: GARBAGE },
    {
      id: "junk",
      label: `${mb(t.junkBytes)} of junk with HTTP 200 (under the size cap)`,
      spec: `oversize=${t.junkBytes}`,
      expect: "error",
      codes: [...GARBAGE, "PAYLOAD_TOO_LARGE"],
    },
    {
      id: "oversize",
      label: `${mb(t.oversizeBytes)} body (over UPSTREAM_MAX_BYTES)`,
      spec: `oversize=${t.oversizeBytes}`,
      expect: "error",
      codes: ["PAYLOAD_TOO_LARGE"],
    },
    { id: "503x1", label: "one 503, then healthy", spec: "503", times: 1, expect: "recover", codes: [] },
    {
      id: "429x1",
      label: "one 429 with Retry-After: 1, then healthy",
      spec: "429;retry-after=1",
      times: 1,
      expect: "recover",
      codes: [],
    },
    {
      id: "resetx1",
      label: "one dropped connection, then healthy",
      spec: "reset",
      times: 1,
      expect: "recover",
      codes: [],
    },
    { id: "slow-ok", label: "body trickled in 8 chunks 5 ms apart", spec: "slow=5", expect: "recover", codes: [] },
    {
      id: "throttle",
      label: "X-Throttling-Control: Red on every answer",
      spec: "throttle=Red",
      expect: "recover",
      codes: [],
    },
  ];
}

export type Rewrite = "splice" | "half";

const SPLICE = '"}]</mangled-by-fault-matrix>&#xFFFF;<\u0000{"';

/** The recorded body, rewritten: garbage spliced into its middle, or only its first half. */
export function rewriteBody(body: Uint8Array, rewrite: Rewrite): Uint8Array<ArrayBuffer> {
  const middle = Math.floor(body.length / 2);
  if (rewrite === "half") return body.slice(0, middle);
  const splice = new TextEncoder().encode(SPLICE);
  const out = new Uint8Array(body.length + splice.length);
  out.set(body.subarray(0, middle));
  out.set(splice, middle);
  out.set(body.subarray(middle), middle + splice.length);
  return out;
}

/**
 * Routes that answer every request under `prefixes` with the recorded answer, rewritten, as a complete
 * HTTP 200 transfer. They are tried before the real routes and ask them for the body, so the damage
 * follows whatever the tool asked for.
 */
export function rewrittenRoutes(prefixes: readonly MockPrefix[], rewrite: Rewrite): MockRoute[] {
  return prefixes.map((prefix) => ({
    prefix,
    name: `fault matrix: ${rewrite} ${prefix}`,
    async handle(request) {
      for (const route of ALL_ROUTES.filter((r) => r.prefix === prefix)) {
        const response = await route.handle(request);
        if (!response) continue;
        const body = rewriteBody(new Uint8Array(await response.arrayBuffer()), rewrite);
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        return new Response(body, { status: response.status, headers });
      }
      return undefined;
    },
  }));
}
