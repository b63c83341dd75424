/**
 * Resolves upstream definitions against the settings into the plain numbers and strings the pipeline
 * runs on: one {@link UpstreamPolicy} per definition, computed once per pipeline.
 */
import { baseUrlVars, DEFAULT_MARGIN_PCT, type PipelineSettings, type Tunable, type UpstreamDef } from "./def.ts";
import type { ThrottleDetector } from "./throttle.ts";

export interface UpstreamPolicy {
  name: string;
  /** Minimum spacing between two request starts, as published (the scheduler adds `marginPct`). */
  intervalMs: number;
  /** Optional second window: at most this many requests in any 60 s. */
  perMinute?: number;
  /** Safety margin in percent on top of the published rate. */
  marginPct: number;
  concurrency: number;
  maxRetries: number;
  ttlMs: number;
  /** Base URL that `path` is appended to ("" when the upstream takes absolute URLs only). */
  baseUrl: string;
  hosts: readonly string[];
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Parameters added to every request (query of a GET, form of a POST). */
  credentials: Readonly<Record<string, string>>;
  /** Literal secret values to redact (credential values named in `secretParams`). */
  secrets: readonly string[];
  contact?: string;
  detectThrottle?: ThrottleDetector;
  finalStatuses?: readonly number[];
  throttleHint: string;
  recoveryHint?: string;
  rateLimitHint?: string;
  /** See UpstreamDef.maxBodyBytes. */
  maxBodyBytes?: number;
  /** Environment variables of the upstream's base URLs (named when a host cannot be reached). */
  baseUrlEnvs: readonly string[];
  redirectHosts: readonly string[];
  postAboveUrlChars?: number;
  perHost?: boolean;
}

function tune<T, S>(value: Tunable<T, S>, settings: S): T {
  return typeof value === "function" ? (value as (settings: S) => T)(settings) : value;
}

export function resolvePolicy<S extends PipelineSettings>(def: UpstreamDef<S>, settings: S): UpstreamPolicy {
  const rate = tune(def.rate, settings);
  const credentials: Record<string, string> = {};
  for (const [k, v] of Object.entries(def.credentials?.(settings) ?? {})) if (v !== undefined) credentials[k] = v;
  const secrets = (def.secretParams ?? []).map((k) => credentials[k]).filter((v): v is string => v !== undefined);
  return {
    name: def.name,
    intervalMs: rate.intervalMs,
    perMinute: rate.perMinute,
    marginPct: rate.marginPct ?? DEFAULT_MARGIN_PCT,
    concurrency: def.concurrency,
    maxRetries: tune(def.maxRetries, settings),
    ttlMs: def.ttlMs,
    baseUrl: def.baseUrl ? settings.baseUrls[def.name] ?? def.baseUrl.default : "",
    hosts: def.hosts,
    backoffBaseMs: def.backoff.baseMs,
    backoffMaxMs: def.backoff.maxMs,
    credentials,
    secrets,
    contact: def.contact?.(settings),
    detectThrottle: def.detectThrottle,
    finalStatuses: def.finalStatuses,
    throttleHint: def.throttleHint?.(settings) ?? "",
    recoveryHint: def.recoveryHint,
    rateLimitHint: def.rateLimitHint?.(settings),
    maxBodyBytes: def.maxBodyBytes,
    baseUrlEnvs: baseUrlVars(def as UpstreamDef<never>).map(([, v]) => v.env),
    redirectHosts: def.redirectHosts ?? [],
    postAboveUrlChars: def.postAboveUrlChars,
    perHost: def.perHost,
  };
}

/** One policy per definition, keyed by name; two definitions with one name are a programming error. */
export function resolvePolicies<S extends PipelineSettings>(
  defs: readonly UpstreamDef<S>[],
  settings: S,
): Record<string, UpstreamPolicy> {
  const out: Record<string, UpstreamPolicy> = {};
  for (const def of defs) {
    if (out[def.name]) throw new TypeError(`two upstream definitions are named '${def.name}'`);
    out[def.name] = resolvePolicy(def, settings);
  }
  return out;
}
