/**
 * The seam between source adapters and the network. Adapters describe a request; the pipeline behind
 * {@link Upstream} paces it, caches it, coalesces it, fetches it, retries it and classifies failures.
 */
import type { HintSituation } from "../core/errors.ts";

/** Web-standard fetch: `globalThis.fetch`, a fixture router and a local mock server all fit. */
export type Fetch = (request: Request) => Promise<Response>;

/**
 * A request as a source adapter describes it. `N` is the set of upstream names (src/upstreams/mod.ts
 * narrows it to the table's names); pacing and policy are per name, not per literal host, so a local mock
 * keeps each policy.
 */
export interface UpstreamRequest<N extends string = string> {
  /** Which upstream of the table: its pacing, cache policy, credentials and base URL apply. */
  upstream: N;
  /** Path appended to the upstream's base URL, e.g. `/esearch.fcgi`. Ignored when `url` is set. */
  path?: string;
  /** Absolute URL (ar5iv pages, publisher links). The upstream still decides pacing and policy. */
  url?: string;
  /** Query parameters; undefined values are dropped. Credentials are added by the pipeline. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Default: POST when `form` is set or the GET URL would be too long for the upstream, else GET. */
  method?: "GET" | "POST";
  /** Sent as application/x-www-form-urlencoded (POST). Credentials go here instead of the query for POST. */
  form?: Record<string, string | number | undefined>;
  /** The Accept header; default any. */
  accept?: string;
  /** Cache lifetime; 0 disables caching for this request. Default: the upstream's policy TTL. */
  ttlMs?: number;
  /** Largest body accepted; default from config. */
  maxBytes?: number;
  /**
   * "manual" returns 3xx responses as they are (no automatic redirect), so a caller that must vet each
   * hop (SSRF checks on publisher links) can follow them itself. Default "follow".
   */
  redirect?: "follow" | "manual";
  /** Cancels the wait for a permit, the fetch and any retry (MCP cancellation). */
  signal?: AbortSignal;
}

/** An upstream's answer, body read whole (within the size cap). */
export interface UpstreamResponse {
  /** HTTP status (2xx: errors throw UpstreamError instead). */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The body bytes. */
  body: Uint8Array;
  /** Final URL with secrets redacted, safe to show to callers (e.g. `eSearchUrl`). */
  url: string;
  /** The method that was sent (a long GET may have become a POST). */
  method?: "GET" | "POST";
  /** Whether the response cache answered. */
  fromCache: boolean;
  /** The body decoded as UTF-8. */
  text(): string;
  /** The body parsed as JSON. */
  json<T = unknown>(): T;
}

/** The pipeline as sources see it: one `request` for every upstream, paced, cached and retried. */
export interface Upstream<N extends string = string> {
  /** Runs a request through the pipeline. Non-2xx, timeouts and network failures throw UpstreamError. */
  request(request: UpstreamRequest<N>): Promise<UpstreamResponse>;
  /** The URL a request would hit, with secrets redacted (for output fields such as `eSearchUrl`). */
  describe(request: UpstreamRequest<N>): string;
  /** Observability for serverInfo: last success per upstream and queue lengths. */
  status(): UpstreamStatus;
  /** What a caller should do when this upstream fails this way (from its definition), if it says. */
  recoveryHint?(upstream: string, situation: HintSituation): string | undefined;
  /** Releases what the pipeline holds open (the shared budget's KV handle). */
  close?(): void;
}

/**
 * Keyed by upstream name; a per-host upstream gets one entry per host (`<name>:<host>`), since each
 * host has its own queue.
 */
export interface UpstreamStatus {
  /** One upstream's (or host's) last success and failure, queue length and cool-down. */
  [upstream: string]: {
    lastSuccessAt?: string;
    lastErrorAt?: string;
    queueLength: number;
    cooldownUntil?: string;
    /** Requests on the wire now. */
    inFlight?: number;
    /** The last failure, redacted (e.g. `HTTP 503`, `timeout`). */
    lastError?: string;
    /** Spacing factor in force when the upstream asked us to slow down (a pressure header). */
    slowdown?: number;
  };
}
