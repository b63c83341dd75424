/**
 * The retry loop of one (possibly coalesced) request. Every attempt — the first and each retry — takes a
 * new permit from the upstream's scheduler, so retries queue behind requests that were already waiting.
 * Throttles (429 or an equivalent signal) put the whole upstream into a shared cool-down; other transient
 * failures back off this request alone, with full jitter; a host that cannot be reached at all is tried
 * twice at most. Redirects are followed hop by hop (each hop a new permit) within the rules of
 * redirects.ts. Failures end as an UpstreamError whose URL, message and body are redacted.
 */
import type { Clock } from "../core/clock.ts";
import { DeadlineError, UpstreamError, type UpstreamErrorKind } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { ResolveDns } from "./address.ts";
import { cooldownMs, fullJitterMs, type Random } from "./backoff.ts";
import { classify, formatBytes, httpMessage, seconds, throttledMessage, times } from "./classify.ts";
import type { PipelineSettings } from "./def.ts";
import { attemptFetch, type AttemptResult, type RawResponse } from "./http_attempt.ts";
import { CooldownError, type PermitGate } from "./permits.ts";
import type { UpstreamPolicy } from "./policies.ts";
import { type Hop, MAX_REDIRECTS, nextHop, REDIRECT_STATUSES, RedirectRefusal } from "./redirects.ts";
import type { BuiltRequest } from "./request_builder.ts";
import type { StatusBoard } from "./status.ts";
import type { Fetch } from "./types.ts";

export interface PipelineContext {
  fetch: Fetch;
  clock: Clock;
  config: PipelineSettings;
  log: Logger;
  random: Random;
  board: StatusBoard;
  redactText: (text: string) => string;
  /** Consecutive throttle signals per queue (reset by a success): drives the exponential cool-down. */
  streaks: Map<string, number>;
  /** Vets the addresses of a host a redirect leads to. */
  resolveDns: ResolveDns;
}

/** A successful answer, ready to wrap, cache or share. */
export interface Delivered {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Redacted final URL. */
  url: string;
}

export interface Queue {
  key: string;
  scheduler: PermitGate;
}

const ERROR_BODY_CHARS = 4096;
const decoder = new TextDecoder();

/** One request's retry state, shared by the helpers below. */
interface Run {
  ctx: PipelineContext;
  built: BuiltRequest;
  policy: UpstreamPolicy;
  queue: Queue;
  maxBytes: number;
  signal: AbortSignal;
  /** Attempts at the current hop (the first and each retry). */
  attempts: number;
  /** What is requested now: the built request, or where its redirects led. */
  hop: Hop;
  redirects: number;
}

/** A host that cannot be reached is tried at most this often in all (once more, in case it was a blip). */
const UNREACHABLE_ATTEMPTS = 2;

/** After an attempt: the answer, or how long this request alone backs off before queueing again. */
type Next = { deliver: Delivered } | { backoffMs: number };

export async function sendWithRetries(
  ctx: PipelineContext,
  built: BuiltRequest,
  policy: UpstreamPolicy,
  queue: Queue,
  options: { maxBytes: number; signal: AbortSignal },
): Promise<Delivered> {
  const hop = { url: built.url, method: built.method, body: built.body };
  const run: Run = { ctx, built, policy, queue, ...options, attempts: 0, hop, redirects: 0 };
  try {
    for await (const permit of queue.scheduler.permits(run.signal)) {
      run.attempts++;
      let result;
      try {
        result = await attemptFetch(hopRequest(run), {
          fetch: ctx.fetch,
          clock: ctx.clock,
          timeoutMs: ctx.config.upstreamTimeoutMs,
          maxBytes: run.maxBytes,
          signal: run.signal,
          onAnswer: () => permit.answered?.(),
          onSend: () => permit.sent?.(),
        });
      } finally {
        permit.release();
      }
      const next = result.ok ? await onResponse(run, result.response, result.ms) : onFailure(run, result);
      if ("deliver" in next) return next.deliver;
      if (next.backoffMs > 0) await ctx.clock.sleep(next.backoffMs, run.signal);
    }
  } catch (error) {
    throw translate(run, error);
  }
  throw new Error("unreachable: the permit iterator never ends");
}

/** The built request, moved to the current hop (a GET after a 303 drops the form and its content type). */
function hopRequest(run: Run): BuiltRequest {
  const { built, hop } = run;
  if (hop.url === built.url && hop.method === built.method) return built;
  const headers = hop.body === undefined ? built.headers.filter(([k]) => k !== "content-type") : built.headers;
  return { ...built, url: hop.url, method: hop.method, body: hop.body, headers };
}

/** Host of the current hop, as written in its URL. */
function hopHost(run: Run): string {
  return new URL(run.hop.url).host;
}

function logAttempt(run: Run, fields: Record<string, unknown>): void {
  run.ctx.log.debug("upstream request", {
    upstream: run.queue.key,
    method: run.hop.method,
    url: run.ctx.redactText(run.hop.url),
    attempt: run.attempts,
    fromCache: false,
    ...fields,
  });
}

function fail(run: Run, init: Omit<ConstructorParameters<typeof UpstreamError>[0], "upstream" | "url">): UpstreamError {
  return new UpstreamError({ ...init, upstream: run.policy.name, url: run.built.shownUrl });
}

/** Nothing (complete) came back: cancelled, too large, timed out or the connection failed. */
function onFailure(run: Run, result: Extract<AttemptResult, { ok: false }>): Next {
  const { ctx, built, policy } = run;
  const detail = ctx.redactText(result.detail);
  logAttempt(run, { error: result.kind, detail, ms: result.ms });
  if (result.kind === "aborted") throw abortError(policy, built, run.signal.reason);
  ctx.board.failure(run.queue.key, `${result.kind}: ${detail}`);
  if (result.kind === "permission") {
    throw fail(run, {
      kind: "permission",
      message: `this server's permission set does not allow network access to ${built.host} (${built.shownUrl})`,
    });
  }
  if (result.kind === "too_large") {
    throw fail(run, {
      kind: "too_large",
      message: `${built.host} sent more than ${formatBytes(run.maxBytes)} for ${built.shownUrl}; ask for less ` +
        `(fewer ids, a smaller page) or raise UPSTREAM_MAX_BYTES`,
    });
  }
  if (result.kind === "unreachable") {
    if (run.attempts >= Math.min(UNREACHABLE_ATTEMPTS, policy.maxRetries + 1)) {
      throw fail(run, {
        kind: "unreachable",
        message: `cannot reach ${hopHost(run)}: ${detail}`,
        cause: new Error(detail),
      });
    }
    return { backoffMs: fullJitterMs(run.attempts, policy, ctx.random) };
  }
  if (run.attempts > policy.maxRetries) throw fail(run, attemptFailure(result.kind, run, detail));
  return { backoffMs: fullJitterMs(run.attempts, policy, ctx.random) };
}

/**
 * A 3xx on a request that follows redirects: the next hop if redirects.ts allows it (it is requested
 * with a new permit, and does not count as a retry). A refused redirect is reported without its body.
 */
async function onRedirect(run: Run, raw: RawResponse): Promise<Next> {
  const { ctx, built, policy } = run;
  if (++run.redirects > MAX_REDIRECTS) {
    throw fail(run, {
      kind: "redirect",
      status: raw.status,
      message: `${built.host} redirected more than ${MAX_REDIRECTS} times for ${built.shownUrl}`,
    });
  }
  try {
    run.hop = await nextHop(raw.status, raw.headers.get("location"), run.hop, new URL(built.url), {
      redirectHosts: policy.redirectHosts,
      resolveDns: ctx.resolveDns,
    });
  } catch (error) {
    if (!(error instanceof RedirectRefusal)) throw error;
    ctx.board.failure(run.queue.key, `redirect refused (HTTP ${raw.status})`);
    throw fail(run, { kind: "redirect", status: raw.status, message: `${error.message} (${built.shownUrl})` });
  }
  run.attempts = 0;
  return { backoffMs: 0 };
}

/** A response came back: deliver it, follow it, or decide between cool-down, back-off and giving up. */
async function onResponse(run: Run, raw: RawResponse, ms: number): Promise<Next> {
  const { ctx, built, policy, queue } = run;
  const { outcome, slowdown } = classify(raw, policy, built.redirect, ctx.clock.now());
  if (slowdown !== undefined) queue.scheduler.setSlowdown(slowdown);
  logAttempt(run, { status: raw.status, ms });
  if (built.redirect === "follow" && REDIRECT_STATUSES.has(raw.status)) return await onRedirect(run, raw);
  const shownUrl = ctx.redactText(raw.url);
  if (outcome.type === "ok") {
    ctx.streaks.delete(queue.key);
    ctx.board.success(queue.key);
    return { deliver: { status: raw.status, headers: raw.headers, body: raw.body, url: shownUrl } };
  }
  const body = ctx.redactText(decoder.decode(raw.body.subarray(0, ERROR_BODY_CHARS)));
  if (outcome.type === "throttled") return onThrottle(run, outcome.signal, outcome.retryAfterMs, body);

  ctx.board.failure(queue.key, `HTTP ${raw.status}`);
  const retryAfterMs = outcome.type === "transient" ? outcome.retryAfterMs : undefined;
  const message = httpMessage(built.host, raw.status, run.attempts, shownUrl, body);
  if (outcome.type === "fatal" || run.attempts > policy.maxRetries) {
    throw fail(run, { kind: "http", status: raw.status, retryAfterMs, body, message });
  }
  if (retryAfterMs === undefined) return { backoffMs: fullJitterMs(run.attempts, policy, ctx.random) };
  // A 503 with Retry-After speaks for the whole service: everyone waits, as after a 429.
  if (retryAfterMs > policy.backoffMaxMs) {
    throw fail(run, {
      kind: "http",
      status: raw.status,
      retryAfterMs,
      body,
      message: `${message}; retry after ${seconds(retryAfterMs)}`,
    });
  }
  queue.scheduler.coolDown(retryAfterMs);
  return { backoffMs: 0 };
}

/** A 429 or equivalent: the whole queue cools down (Retry-After, else exponential); the retry queues again. */
function onThrottle(run: Run, signal: string, retryAfterMs: number | undefined, body: string): Next {
  const { ctx, built, policy, queue } = run;
  const streak = (ctx.streaks.get(queue.key) ?? 0) + 1;
  ctx.streaks.set(queue.key, streak);
  const wait = retryAfterMs ?? cooldownMs(streak, policy);
  queue.scheduler.coolDown(wait);
  ctx.board.failure(queue.key, `throttled: ${signal}`);
  ctx.log.warn("upstream throttled; cooling down", { upstream: queue.key, signal, cooldownMs: wait });
  if (run.attempts <= policy.maxRetries && wait <= policy.backoffMaxMs) return { backoffMs: 0 };
  const remaining = Math.max(wait, (queue.scheduler.cooldownUntil ?? 0) - ctx.clock.now());
  throw fail(run, {
    kind: "http",
    status: 429,
    retryAfterMs: remaining,
    body,
    message: throttledMessage(built.host, signal, run.attempts, remaining, policy.throttleHint),
  });
}

/** Errors from waiting (permit, back-off): cancellation and a too-long cool-down become UpstreamErrors. */
function translate(run: Run, error: unknown): unknown {
  if (error instanceof UpstreamError) return error;
  if (run.signal.aborted) return abortError(run.policy, run.built, run.signal.reason);
  if (error instanceof CooldownError) {
    return fail(run, {
      kind: "policy",
      retryAfterMs: error.retryAfterMs,
      message: `${run.built.host} is cooling down after throttling us; retry after ${
        seconds(error.retryAfterMs)
      }${run.policy.throttleHint}`,
      cause: error,
    });
  }
  return error;
}

function attemptFailure(
  kind: "network" | "timeout",
  run: Run,
  detail: string,
): { kind: UpstreamErrorKind; message: string; cause: Error } {
  const { built, attempts } = run;
  const message = kind === "timeout"
    ? `${built.host} did not answer within ${seconds(run.ctx.config.upstreamTimeoutMs)} (${times(attempts)}) for ` +
      `${built.shownUrl}; retry later or raise UPSTREAM_TIMEOUT_MS`
    : `the connection to ${hopHost(run)} failed ${times(attempts)} (last error: ${detail}) for ${built.shownUrl}`;
  // The original error's text can contain the full URL, credentials included: keep only the redacted detail.
  return { kind, message, cause: new Error(detail) };
}

/** Cancelled by the caller, or stopped by the tool call's deadline (which says so, and how to change it). */
export function abortError(policy: UpstreamPolicy, built: BuiltRequest, reason: unknown): UpstreamError {
  if (reason instanceof DeadlineError) {
    return new UpstreamError({
      kind: "timeout",
      upstream: policy.name,
      url: built.shownUrl,
      message: `${built.host} did not answer before ${reason.message}`,
      cause: reason,
    });
  }
  return new UpstreamError({
    kind: "aborted",
    upstream: policy.name,
    url: built.shownUrl,
    message: `request to ${built.host} was cancelled: ${built.shownUrl}`,
    cause: reason,
  });
}
