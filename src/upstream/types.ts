/**
 * The seam between source adapters and the network. Adapters describe a request; the pipeline behind
 * {@link Upstream} paces it, caches it, coalesces it, fetches it, retries it and classifies failures.
 */

/** Web-standard fetch: `globalThis.fetch`, a fixture router and a local mock server all fit. */
export type Fetch = (request: Request) => Promise<Response>;

/**
 * A request as a source adapter describes it. `N` is the set of upstream names (src/upstreams/mod.ts
 * narrows it to the table's names); pacing and policy are per name, not per literal host, so a local mock
 * keeps each policy.
 */
export interface UpstreamRequest<N extends string = string> {
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

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Final URL with secrets redacted, safe to show to callers (e.g. `eSearchUrl`). */
  url: string;
  /** The method that was sent (a long GET may have become a POST). */
  method?: "GET" | "POST";
  fromCache: boolean;
  text(): string;
  json<T = unknown>(): T;
}

export interface Upstream<N extends string = string> {
  /** Runs a request through the pipeline. Non-2xx, timeouts and network failures throw UpstreamError. */
  request(request: UpstreamRequest<N>): Promise<UpstreamResponse>;
  /** The URL a request would hit, with secrets redacted (for output fields such as `eSearchUrl`). */
  describe(request: UpstreamRequest<N>): string;
  /** Observability for serverInfo: last success per upstream and queue lengths. */
  status(): UpstreamStatus;
  /** What a caller should do when this upstream fails (its definition's recovery hint), if it says. */
  recoveryHint?(upstream: string): string | undefined;
}

/**
 * Keyed by upstream name; a per-host upstream gets one entry per host (`<name>:<host>`), since each
 * host has its own queue.
 */
export interface UpstreamStatus {
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
