/**
 * The contract of one upstream service, as ToolDef is for tools: everything the pipeline needs to know
 * about a service (where it lives, how fast it may be asked, which credentials go along, how it says
 * "slow down", what a caller should do when it fails). The definitions themselves live in src/upstreams/;
 * this layer names no service.
 */
import type { ThrottleDetector } from "./throttle.ts";

/** What the pipeline reads from the configuration, whatever else a configuration holds. */
export interface PipelineSettings {
  /** Timeout of one attempt, body included. */
  upstreamTimeoutMs: number;
  /** Largest body accepted unless a request asks for less. */
  upstreamMaxBytes: number;
  /** Budget of the response cache; 0 disables it. */
  cacheMaxBytes: number;
  /** Base URL per key: an upstream's name, or the key of one of its extra base URLs. */
  baseUrls: Readonly<Record<string, string>>;
  /**
   * Deno KV location (file path or KV Connect URL) of a rate budget shared by every instance that uses
   * it; unset, each instance paces alone in memory.
   */
  kvLocation?: string;
}

/** A value fixed in the definition, or computed from the settings (an API key raises a rate). */
export type Tunable<T, S> = T | ((settings: S) => T);

/** A base URL the operator may move (to a mirror, to the mock upstream), with its environment variable. */
export interface BaseUrlVar {
  /** Environment variable that overrides it, e.g. `EXAMPLE_BASE_URL`. */
  env: string;
  /** The service's own base URL. */
  default: string;
  /** One line for the settings table of the README. */
  description: string;
  /** Path prefix under which scripts/mock_upstream.ts serves this base URL. */
  mockPrefix: string;
}

/** How fast a service may be asked, as it publishes it. */
export interface Rate {
  /** Minimum spacing between two request starts, as the service publishes it. */
  intervalMs: number;
  /** Optional second window: at most this many requests in any 60 s. */
  perMinute?: number;
  /**
   * Safety margin in percent the scheduler adds on top of the published rate (spacing × (1 + m/100),
   * per-minute budget ÷ (1 + m/100)), so clock skew and network jitter never push us over it.
   * Default {@link DEFAULT_MARGIN_PCT}; 0 for an operator's explicit setting.
   */
  marginPct?: number;
}

/** Margin used when a definition does not set one. */
export const DEFAULT_MARGIN_PCT = 10;

/**
 * One upstream service. `S` is the settings type its functions read (credentials, overrides); the
 * pipeline passes the configuration it was given.
 */
export interface UpstreamDef<S extends PipelineSettings = PipelineSettings> {
  /** The name requests use (`{ upstream: name }`), status reports show, and the queue is keyed by. */
  name: string;
  /** Human-readable, for docs and messages. */
  title: string;
  /** Where `path` is appended; absent for upstreams reached only by absolute URLs. */
  baseUrl?: BaseUrlVar;
  /** More base URLs paced by the same queue (a mirror of the same site); keys name them in `baseUrls`. */
  extraBaseUrls?: Readonly<Record<string, BaseUrlVar>>;
  /** Mock prefix of an upstream without a base URL (absolute URLs pointed at the mock in tests). */
  mockPrefix?: string;
  /** Hosts the confined permission sets of deno.json must grant. */
  hosts: readonly string[];
  /** The published rate (a key may raise it). */
  rate: Tunable<Rate, S>;
  /** Requests in flight at once. */
  concurrency: number;
  /**
   * Largest body this service sends for a real request (UPSTREAM_MAX_BYTES caps it further). Parsing runs
   * on the main thread and grows with size: a larger body is refused as too large before anyone parses it.
   */
  maxBodyBytes?: number;
  /** Retries after the first attempt (429, 5xx, network); each retry waits for a new permit. */
  maxRetries: Tunable<number, S>;
  /** Default cache lifetime of a successful response; 0 = never cached. */
  ttlMs: number;
  /** First step and ceiling of the retry back-off and of the shared cool-down after a throttle. */
  backoff: { baseMs: number; maxMs: number };
  /** Parameters added to every request: to the query of a GET, to the form of a POST. */
  credentials?(settings: S): Readonly<Record<string, string | undefined>>;
  /** Names of credential parameters whose values are secrets (redacted wherever they appear). */
  secretParams?: readonly string[];
  /** Contact address for the User-Agent; the first definition that has one provides it. */
  contact?(settings: S): string | undefined;
  /** Reads throttle signals that are not a 429 (a 200 body, a header). */
  detectThrottle?: ThrottleDetector;
  /** 5xx statuses that mean "this request will never succeed as sent": not retried. */
  finalStatuses?: readonly number[];
  /** Appended to a throttle message: what to do besides waiting (e.g. " or set X_API_KEY"). */
  throttleHint?(settings: S): string;
  /**
   * The recovery hint of a call that failed for any reason but a rate limit or an unreachable host;
   * default "Retry shortly; the upstream service may be unavailable." No rate-limit advice here.
   */
  recoveryHint?: string;
  /** The recovery hint of a rate-limited call (the place for "set X_API_KEY for a higher limit"). */
  rateLimitHint?(settings: S): string;
  /**
   * Hosts besides the request's own that a redirect may lead to (each still has to resolve to public
   * addresses only). Redirects to any other host are refused. Default: none.
   */
  redirectHosts?: readonly string[];
  /**
   * A request that sets neither `method` nor `form` goes as a form POST when its GET URL would be longer
   * than this many characters (some proxies cut URLs near 2 KB; services ask for POST with long id lists).
   */
  postAboveUrlChars?: number;
  /** One queue per host rather than per name (links that point at many unrelated hosts). */
  perHost?: boolean;
}

/** Every base URL of a definition with the key it has in `PipelineSettings.baseUrls`. */
export function baseUrlVars(def: UpstreamDef<never>): [key: string, variable: BaseUrlVar][] {
  const out: [string, BaseUrlVar][] = def.baseUrl ? [[def.name, def.baseUrl]] : [];
  return [...out, ...Object.entries(def.extraBaseUrls ?? {})];
}

/** Mock prefixes a definition is served under. */
export function mockPrefixes(def: UpstreamDef<never>): string[] {
  return [...baseUrlVars(def).map(([, v]) => v.mockPrefix), ...(def.mockPrefix ? [def.mockPrefix] : [])];
}

/** Identity function that checks a literal against the contract (as defineTool does for tools). */
export function defineUpstream<S extends PipelineSettings>(def: UpstreamDef<S>): UpstreamDef<S> {
  return def;
}
