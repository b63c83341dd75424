/**
 * The upstream pipeline behind {@link Upstream}:
 *
 *   build (base URL, credentials, User-Agent) → cache lookup → coalesce identical in-flight requests →
 *   [permit → fetch (timeout, cancellation, size cap) → classify → retry with a new permit] → cache store.
 *
 * Cache hits and coalesced followers come before the scheduler on purpose: they cost the upstream
 * nothing, so they must not spend its rate budget or wait behind a 3 s arXiv spacing.
 */
import type { Config } from "../config.ts";
import type { Clock } from "../core/clock.ts";
import { UpstreamError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Random } from "./backoff.ts";
import { ResponseCache } from "./cache.ts";
import { formatBytes } from "./classify.ts";
import { Coalescer } from "./coalesce.ts";
import { upstreamPolicies, type UpstreamPolicy } from "./policies.ts";
import { buildRequest, type BuiltRequest, makeRedactor } from "./request_builder.ts";
import { makeResponse } from "./response.ts";
import { Scheduler } from "./scheduler.ts";
import { abortError, type Delivered, type PipelineContext, sendWithRetries } from "./send_with_retries.ts";
import { StatusBoard } from "./status.ts";
import type { Fetch, Upstream, UpstreamName, UpstreamRequest, UpstreamResponse } from "./types.ts";

export interface UpstreamDeps {
  fetch: Fetch;
  clock: Clock;
  config: Config;
  log: Logger;
  /** Jitter source for retry back-off; default `Math.random`. */
  random?: Random;
  /** Per-upstream policy changes (benchmarks, tests that want other pacing). */
  policies?: Partial<Record<UpstreamName, Partial<UpstreamPolicy>>>;
}

export function createUpstream(deps: UpstreamDeps): Upstream {
  const { config, clock, log } = deps;
  const policies = withOverrides(upstreamPolicies(config), deps.policies);
  const redactText = makeRedactor(config);
  const cache = new ResponseCache({ maxBytes: config.cacheMaxBytes }, clock);
  const flights = new Coalescer<Delivered>();
  const schedulers = new Map<string, Scheduler>();
  const board = new StatusBoard(clock);
  const ctx: PipelineContext = {
    fetch: deps.fetch,
    clock,
    config,
    log,
    random: deps.random ?? Math.random,
    board,
    redactText,
    streaks: new Map(),
  };

  function policyOf(req: UpstreamRequest): UpstreamPolicy {
    const policy = policies[req.upstream];
    if (!policy) throw new TypeError(`unknown upstream '${req.upstream}'`);
    return policy;
  }

  /** One scheduler per upstream name, or per host for per-host upstreams (publisher links). */
  function queueFor(policy: UpstreamPolicy, built: BuiltRequest) {
    const key = policy.perHost ? `${policy.name}:${built.host}` : policy.name;
    let scheduler = schedulers.get(key);
    if (!scheduler) {
      scheduler = new Scheduler({
        name: key,
        intervalMs: policy.intervalMs,
        perMinute: policy.perMinute,
        concurrency: policy.concurrency,
        maxCooldownWaitMs: policy.backoffMaxMs,
      }, clock);
      schedulers.set(key, scheduler);
    }
    return { key, scheduler };
  }

  function tooLarge(policy: UpstreamPolicy, built: BuiltRequest, maxBytes: number): UpstreamError {
    return new UpstreamError({
      kind: "too_large",
      upstream: policy.name,
      url: built.shownUrl,
      message: `${built.host} sent more than ${formatBytes(maxBytes)} for ${built.shownUrl}; ask for less`,
    });
  }

  async function request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const policy = policyOf(req);
    const built = buildRequest(req, policy, config, redactText);
    const maxBytes = req.maxBytes ?? config.upstreamMaxBytes;
    const ttlMs = req.ttlMs ?? policy.ttlMs;
    const queue = queueFor(policy, built);
    if (req.signal?.aborted) throw abortError(policy, built, req.signal.reason);

    if (ttlMs > 0) {
      const hit = cache.get(built.cacheKey);
      if (hit) {
        log.debug("upstream request", {
          upstream: queue.key,
          method: built.method,
          url: built.shownUrl,
          status: hit.status,
          ms: 0,
          attempt: 0,
          fromCache: true,
        });
        if (hit.body.byteLength > maxBytes) throw tooLarge(policy, built, maxBytes);
        return makeResponse(hit.status, hit.headers, hit.body, hit.url, true);
      }
    }

    try {
      const { value, shared } = await flights.run(
        `${built.cacheKey}\nmaxBytes=${maxBytes}`,
        req.signal,
        async (signal) => {
          const delivered = await sendWithRetries(ctx, built, policy, queue, { maxBytes, signal });
          if (ttlMs > 0) {
            cache.set(built.cacheKey, { ...delivered, headers: [...delivered.headers] }, ttlMs);
          }
          return delivered;
        },
      );
      if (shared) log.debug("upstream request coalesced", { upstream: queue.key, url: built.shownUrl });
      return makeResponse(value.status, value.headers, value.body, value.url, false);
    } catch (error) {
      if (req.signal?.aborted && !(error instanceof UpstreamError && error.kind === "aborted")) {
        throw abortError(policy, built, req.signal.reason);
      }
      throw error;
    }
  }

  return {
    request,
    describe: (req) => buildRequest(req, policyOf(req), config, redactText).shownUrl,
    status: () => board.snapshot(Object.keys(policies).filter((n) => !policies[n as UpstreamName].perHost), schedulers),
  };
}

function withOverrides(
  base: Record<UpstreamName, UpstreamPolicy>,
  overrides: UpstreamDeps["policies"],
): Record<UpstreamName, UpstreamPolicy> {
  if (!overrides) return base;
  const out = { ...base };
  for (const [name, patch] of Object.entries(overrides) as [UpstreamName, Partial<UpstreamPolicy>][]) {
    out[name] = { ...base[name], ...patch, name };
  }
  return out;
}
