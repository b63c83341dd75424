/**
 * The upstream pipeline behind {@link Upstream}:
 *
 *   build (base URL, credentials, User-Agent) → cache lookup → coalesce identical in-flight requests →
 *   [permit → fetch (timeout, cancellation, size cap) → classify → retry with a new permit] → cache store.
 *
 * Cache hits and coalesced followers come before the scheduler on purpose: they cost the upstream
 * nothing, so they must not spend its rate budget or wait behind a slow upstream's spacing.
 */
import type { Clock } from "../core/clock.ts";
import { type HintSituation, UpstreamError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { type ResolveDns, systemResolveDns } from "./address.ts";
import type { Random } from "./backoff.ts";
import { ResponseCache } from "./cache.ts";
import { formatBytes } from "./classify.ts";
import { Coalescer } from "./coalesce.ts";
import type { PipelineSettings, UpstreamDef } from "./def.ts";
import type { GateFactory, PermitGate } from "./permits.ts";
import { resolvePolicies, type UpstreamPolicy } from "./policies.ts";
import { buildRequest, type BuiltRequest, type Identity, makeRedactor, userAgent } from "./request_builder.ts";
import { makeResponse } from "./response.ts";
import { checkKvLocation, kvBudgetStore } from "./kv_budget_store.ts";
import { Scheduler } from "./scheduler.ts";
import { sharedGates } from "./shared_budget.ts";
import { abortError, type Delivered, type PipelineContext, sendWithRetries } from "./send_with_retries.ts";
import { StatusBoard } from "./status.ts";
import type { Fetch, Upstream, UpstreamRequest, UpstreamResponse } from "./types.ts";

export interface PipelineDeps<S extends PipelineSettings> {
  fetch: Fetch;
  clock: Clock;
  config: S;
  log: Logger;
  /** The upstreams this pipeline serves (src/upstreams/mod.ts for the server; a fake one in a test). */
  upstreams: readonly UpstreamDef<S>[];
  /** Product token of the User-Agent, e.g. `science-mcp/0.1.0`. */
  product: string;
  /** Jitter source for retry back-off; default `Math.random`. */
  random?: Random;
  /** Per-upstream policy changes (benchmarks, tests that want other pacing). */
  policies?: Readonly<Record<string, Partial<UpstreamPolicy>>>;
  /**
   * Builds the pacing gate of each queue; default an in-process {@link Scheduler}, or gates on the shared
   * KV budget when the settings name a `kvLocation`.
   */
  gates?: GateFactory;
  /** Resolver for vetting the hosts redirects lead to; default the system resolver. */
  resolveDns?: ResolveDns;
}

const inProcess: GateFactory = (options, clock) => new Scheduler(options, clock);

export function createPipeline<S extends PipelineSettings>(deps: PipelineDeps<S>): Upstream {
  const { config, clock, log } = deps;
  const policies = withOverrides(resolvePolicies(deps.upstreams, config), deps.policies);
  const list = Object.values(policies);
  const identity: Identity = { userAgent: userAgent(deps.product, list), redactText: makeRedactor(list) };
  const shared = deps.gates || !config.kvLocation ? undefined : sharedBudget(config.kvLocation, log);
  const makeGate = deps.gates ?? shared?.gates ?? inProcess;
  const cache = new ResponseCache({ maxBytes: config.cacheMaxBytes }, clock);
  const flights = new Coalescer<Delivered>();
  const schedulers = new Map<string, PermitGate>();
  const board = new StatusBoard(clock);
  const ctx: PipelineContext = {
    fetch: deps.fetch,
    clock,
    config,
    log,
    random: deps.random ?? Math.random,
    board,
    redactText: identity.redactText,
    streaks: new Map(),
    resolveDns: deps.resolveDns ?? systemResolveDns,
  };

  function policyOf(req: UpstreamRequest): UpstreamPolicy {
    const policy = Object.hasOwn(policies, req.upstream) ? policies[req.upstream] : undefined;
    if (!policy) throw new TypeError(`unknown upstream '${req.upstream}'`);
    return policy;
  }

  /** One gate per upstream name, or per host for per-host upstreams. */
  function queueFor(policy: UpstreamPolicy, built: BuiltRequest) {
    const key = policy.perHost ? `${policy.name}:${built.host}` : policy.name;
    let scheduler = schedulers.get(key);
    if (!scheduler) {
      scheduler = makeGate({
        name: key,
        intervalMs: policy.intervalMs,
        perMinute: policy.perMinute,
        marginPct: policy.marginPct,
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
    const built = buildRequest(req, policy, identity);
    const maxBytes = req.maxBytes ?? Math.min(policy.maxBodyBytes ?? Infinity, config.upstreamMaxBytes);
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
        return makeResponse(hit.status, hit.headers, hit.body, hit.url, true, built.method);
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
      return makeResponse(value.status, value.headers, value.body, value.url, false, built.method);
    } catch (error) {
      if (req.signal?.aborted && !(error instanceof UpstreamError && error.kind === "aborted")) {
        throw abortError(policy, built, req.signal.reason);
      }
      throw error;
    }
  }

  return {
    request,
    describe: (req) => buildRequest(req, policyOf(req), identity).shownUrl,
    status: () => board.snapshot(list.filter((p) => !p.perHost).map((p) => p.name), schedulers),
    recoveryHint: (name, situation) => Object.hasOwn(policies, name) ? hintFor(policies[name], situation) : undefined,
    close: () => shared?.close(),
  };
}

/** Gates on a KV budget shared with every instance that names the same location (checked at start). */
function sharedBudget(location: string, log: Logger): { gates: GateFactory; close(): void } {
  checkKvLocation(location);
  const store = kvBudgetStore(location, { log });
  log.info("rate budget shared through Deno KV", { kv: location.replace(/\/\/[^/@]*@/, "//") });
  return { gates: sharedGates({ store, log }), close: () => store.close() };
}

/** Rate-limit advice only for rate limits; an unreachable host gets the settings that point at it. */
function hintFor(policy: UpstreamPolicy, situation: HintSituation): string | undefined {
  if (situation === "rate_limited") return policy.rateLimitHint;
  if (situation === "failed") return policy.recoveryHint;
  const settings = policy.baseUrlEnvs.length ? ` and ${policy.baseUrlEnvs.join(" / ")}` : "";
  return `Retrying will not help until the host is reachable: check the network connection${settings}.`;
}

function withOverrides(
  base: Record<string, UpstreamPolicy>,
  overrides: PipelineDeps<never>["policies"],
): Record<string, UpstreamPolicy> {
  if (!overrides) return base;
  const out = { ...base };
  for (const [name, patch] of Object.entries(overrides)) {
    if (!out[name]) throw new TypeError(`policy override for unknown upstream '${name}'`);
    out[name] = { ...base[name], ...patch, name };
  }
  return out;
}
