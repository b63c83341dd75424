/** Wiring for upstream pipeline tests: a ManualClock-driven pipeline and a fetch that records when it was hit. */
import type { Env } from "../../src/config.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { type LogRecord, memoryLogger } from "../../src/core/log.ts";
import { createUpstream, type UpstreamDeps } from "../../src/upstreams/mod.ts";
import type { Upstream } from "../../src/upstream/types.ts";
import { testConfig } from "../helpers/runtime.ts";

export interface Hit {
  at: number;
  method: string;
  url: URL;
  body: string;
  headers: Headers;
}

export type Handler = (hit: Hit, index: number) => Response | Promise<Response>;

/** A fetch that records each request with the (manual) time it arrived, then answers with `handler`. */
export function timedFetch(clock: ManualClock, handler: Handler) {
  const hits: Hit[] = [];
  const fetch = async (request: Request) => {
    const hit = {
      at: clock.now(),
      method: request.method,
      url: new URL(request.url),
      body: request.body ? await request.text() : "",
      headers: request.headers,
    };
    hits.push(hit);
    return handler(hit, hits.length - 1);
  };
  return Object.assign(fetch, { hits });
}

export interface Harness {
  clock: ManualClock;
  upstream: Upstream;
  hits: Hit[];
  logs: LogRecord[];
}

/** A pipeline on a ManualClock starting at 0, jitter fixed at `random` (default 0.5). */
export function harness(
  handler: Handler,
  options: { env?: Env; random?: () => number; policies?: UpstreamDeps["policies"] } = {},
): Harness {
  const clock = new ManualClock(0);
  const fetch = timedFetch(clock, handler);
  const log = memoryLogger();
  const upstream = createUpstream({
    fetch,
    clock,
    config: testConfig(options.env),
    log,
    random: options.random ?? (() => 0.5),
    policies: options.policies,
  });
  return { clock, upstream, hits: fetch.hits, logs: log.records };
}

/** Advances the clock in steps until `promise` settles (or `limitMs` of manual time passed), then returns it. */
export async function drive<T>(
  clock: ManualClock,
  promise: Promise<T>,
  stepMs = 1000,
  limitMs = 3_600_000,
): Promise<T> {
  let settled = false;
  promise.then(() => (settled = true), () => (settled = true));
  await clock.advance(0);
  for (let elapsed = 0; !settled && elapsed < limitMs; elapsed += stepMs) await clock.advance(stepMs);
  return promise;
}

/** Settles `promise` into a value or the error it threw, for assertions on failures. */
export async function outcome<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers });
}
