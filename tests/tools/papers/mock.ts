/**
 * Test wiring for the papers tools: the mock routes of scripts/mock_routes/papers.ts served through a
 * scripted fetch (no sockets), base URLs pointing at them, and a driver for the ManualClock so paced
 * upstreams (arXiv: one request per 3 s) move on without real waiting.
 */
import assert from "node:assert/strict";
import { europepmcRoutes } from "../../../scripts/mock_routes/europepmc.ts";
import { ncbiRoutes } from "../../../scripts/mock_routes/ncbi.ts";
import { papersRoutes } from "../../../scripts/mock_routes/papers.ts";
import { researchRoutes } from "../../../scripts/mock_routes/research.ts";
import type { Env } from "../../../src/config.ts";
import { ManualClock } from "../../../src/core/clock.ts";
import type { ResolveDns } from "../../../src/sources/publisher/guard.ts";
import { PAPERS_DEPS, type PapersDeps } from "../../../src/tools/papers/deps.ts";
export { errorOf } from "../../helpers/tool_result.ts";
import { type Route, scriptedFetch, testConfig } from "../../helpers/runtime.ts";
import { mockUpstreamRoute, toolHarness } from "../../helpers/tool_harness.ts";
import { provide } from "../../../src/core/shared_key.ts";
import { memoryLogger } from "../../../src/core/log.ts";
import { createRuntime } from "../../../src/runtime.ts";

export const MOCK_ORIGIN = "http://mock.test";

export const MOCK_ENV = {
  ARXIV_API_BASE_URL: `${MOCK_ORIGIN}/arxiv-api`,
  ARXIV_WEB_BASE_URL: `${MOCK_ORIGIN}/arxiv-web`,
  AR5IV_BASE_URL: `${MOCK_ORIGIN}/ar5iv`,
  OPENALEX_BASE_URL: `${MOCK_ORIGIN}/openalex`,
  NCBI_EUTILS_BASE_URL: `${MOCK_ORIGIN}/ncbi`,
  NCBI_IDCONV_BASE_URL: `${MOCK_ORIGIN}/idconv`,
  EUROPEPMC_BASE_URL: `${MOCK_ORIGIN}/europepmc`,
};

/** Advances the clock a second at a time until `promise` settles (at most `maxMs` of fake time). */
export async function settle<T>(clock: ManualClock, promise: Promise<T>, maxMs = 600_000): Promise<T> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let elapsed = 0; !done && elapsed < maxMs; elapsed += 1000) await clock.advance(1000);
  return await promise;
}

/** Records the fake time at which each request reached the network. */
export function timed(clock: ManualClock, route: Route): Route & { times: { url: URL; at: number }[] } {
  const times: { url: URL; at: number }[] = [];
  const wrapped: Route = (req) => {
    times.push({ url: req.url, at: clock.now() });
    return route(req);
  };
  return Object.assign(wrapped, { times });
}

export interface CallResult {
  structuredContent?: unknown;
  isError?: boolean;
  content?: { type: string; text?: string }[];
}

export interface PapersClientOptions {
  env?: Env;
  /** Tried before the papers mock routes. */
  routes?: Route[];
  seams?: PapersDeps;
}

/** Fake DNS: every name is a public address, so only literal hostile hosts are refused. */
export const publicDns: ResolveDns = (_host, type) => Promise.resolve(type === "A" ? ["93.184.216.34"] : []);

function papersOptions(options: PapersClientOptions, clock: ManualClock, times: { url: URL; at: number }[]) {
  const record: Route = (req) => void times.push({ url: req.url, at: clock.now() });
  return {
    routes: [record, ...(options.routes ?? [])],
    mockRoutes: [...researchRoutes, ...ncbiRoutes, ...papersRoutes, ...europepmcRoutes],
    env: { ...MOCK_ENV, ...options.env },
    clock,
    provide: [provide(PAPERS_DEPS, { resolveDns: publicDns, ...options.seams })],
  };
}

/**
 * A runtime wired to the papers mock routes, a ManualClock (1 March 2026) and the papers deps (fake
 * public DNS unless given), for callers that need no MCP client (the CLI). `times` records the fake
 * time of every request.
 */
export function papersRuntime(options: PapersClientOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 2, 1));
  const times: { url: URL; at: number }[] = [];
  const { routes, mockRoutes, env, provide } = papersOptions(options, clock, times);
  const config = testConfig(env);
  const fetch = scriptedFetch(...routes, mockUpstreamRoute(config, mockRoutes));
  const runtime = createRuntime({ config, fetch, clock, log: memoryLogger(), provide });
  return { runtime, clock, fetch, times };
}

/** The shared tool harness over the papers mock routes; `call` drives the clock until the tool answers. */
export async function papersClient(options: PapersClientOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 2, 1));
  const times: { url: URL; at: number }[] = [];
  const h = await toolHarness({ ...papersOptions(options, clock, times), driveClock: true });
  const call = (name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number }) => void) =>
    h.call(name, args, onprogress) as Promise<CallResult>;
  return {
    client: h.client,
    close: h.close,
    clock,
    fetch: { requests: h.requests },
    times,
    runtime: h.runtime,
    call,
    logs: h.logs,
  };
}

export function structured<T = Record<string, unknown>>(result: { structuredContent?: unknown; isError?: unknown }): T {
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as T;
}
