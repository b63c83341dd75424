/**
 * Test doubles for the PubChem adapter: an {@link Upstream} that records every request description
 * (path, method, form, query, ttlMs) and answers from routes, a clock whose sleeps return at once while
 * time moves on, and a context that records progress notifications.
 */
import { UpstreamError } from "../../../src/core/errors.ts";
import type { Clock } from "../../../src/core/clock.ts";
import { memoryLogger } from "../../../src/core/log.ts";
import type { PubChemContext } from "../../../src/sources/pubchem/client.ts";
import type { Upstream, UpstreamRequest, UpstreamResponse } from "../../../src/upstream/types.ts";

export const BASE = "https://pubchem.ncbi.nlm.nih.gov/rest";

export interface Answer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
  /** Pretend the pipeline served this from its cache. */
  fromCache?: boolean;
}

export type FakeRoute = (request: UpstreamRequest) => Answer | undefined;

/** Reads a fixture from fixtures/pubchem/. */
export function pubchemFixture(name: string): string {
  return Deno.readTextFileSync(new URL(`../../../fixtures/pubchem/${name}`, import.meta.url));
}

/** Answers `path` (exact match, any method) with a fixture. */
export function on(path: string, fixtureName: string, status = 200): FakeRoute {
  return (req) => req.path === path ? { status, body: pubchemFixture(fixtureName) } : undefined;
}

export function describeRequest(req: UpstreamRequest): string {
  const url = new URL(BASE + (req.path ?? ""));
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** An Upstream that behaves like the pipeline's contract: non-2xx throws UpstreamError with status and body. */
export function fakeUpstream(...routes: FakeRoute[]): Upstream & { requests: UpstreamRequest[] } {
  const requests: UpstreamRequest[] = [];
  return {
    requests,
    request(req) {
      requests.push(req);
      const answer = routes.map((r) => r(req)).find((a) => a !== undefined);
      const url = describeRequest(req);
      if (!answer) return Promise.reject(new Error(`no fake route for ${req.method ?? "GET"} ${req.path}`));
      const status = answer.status ?? 200;
      if (status < 200 || status > 299) {
        return Promise.reject(
          new UpstreamError({
            kind: "http",
            upstream: "pubchem",
            url,
            status,
            message: `pubchem answered HTTP ${status} for ${url}`,
            body: answer.body.slice(0, 4096),
          }),
        );
      }
      return Promise.resolve(response(status, answer, url));
    },
    describe: describeRequest,
    status: () => ({}),
  };
}

function response(status: number, answer: Answer, url: string): UpstreamResponse {
  return {
    status,
    headers: new Headers(answer.headers ?? {}),
    body: new TextEncoder().encode(answer.body),
    url,
    fromCache: answer.fromCache ?? false,
    text: () => answer.body,
    json: <T>() => JSON.parse(answer.body) as T,
  };
}

/** A clock whose sleeps resolve at once and advance `now`; every sleep is recorded. */
export function instantClock(start = 1_700_000_000_000): Clock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      now += Math.max(0, ms);
      return Promise.resolve();
    },
  };
}

export interface ProgressEvent {
  progress: number;
  total?: number;
  message?: string;
}

export function fakeContext(
  upstream: Upstream,
  clock: Clock = instantClock(),
): PubChemContext & { progressEvents: ProgressEvent[] } {
  const progressEvents: ProgressEvent[] = [];
  return {
    upstream,
    clock,
    log: memoryLogger(),
    signal: new AbortController().signal,
    progressEvents,
    progress(progress, total, message) {
      progressEvents.push({ progress, total, message });
      return Promise.resolve();
    },
  };
}
