/**
 * The one tool harness: a runtime over a scripted fetch (a test's own routes first, then the mock
 * upstream's routes served in-process by the upstream table's mock prefixes), a ManualClock, and a real
 * MCP client over memory; or invokeTool without MCP. Every toolset's test helper builds on it.
 *
 * @example
 * await withTools({ env: { SCIENCE_MCP_TOOLSETS: "gene" } }, async (h) => {
 *   assert.equal((await h.call("search_genes", { query: "TP53" })).isError, undefined);
 * });
 */
import { ALL_ROUTES } from "../../scripts/mock_routes/mod.ts";
import type { MockRoute } from "../../scripts/mock_routes/types.ts";
import type { Config, Env } from "../../src/config.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { invokeTool, type ToolResult } from "../../src/core/invoke.ts";
import { type LogRecord, memoryLogger } from "../../src/core/log.ts";
import type { Provided } from "../../src/core/shared_key.ts";
import { createRuntime, type Runtime, toolContext } from "../../src/runtime.ts";
import type { Client } from "../../src/sdk_client.ts";
import { baseUrlSettings, UPSTREAMS } from "../../src/upstreams/mod.ts";
import { toMockRequest } from "./mock_routes.ts";
import { connectClient, type RecordedRequest, type Route, scriptedFetch, testConfig } from "./runtime.ts";

export interface HarnessOptions {
  /** Tried first, in order: faults, odd bodies, recorders (return undefined to pass a request on). */
  routes?: Route[];
  /** Mock upstream routes served after `routes`; default every route (scripts/mock_routes), `[]` for none. */
  mockRoutes?: readonly MockRoute[];
  env?: Env;
  /** Default a ManualClock at 1 March 2026, 00:00 UTC. */
  clock?: ManualClock;
  /** Singletons the runtime starts with (a toolset's deps). */
  provide?: readonly Provided[];
  /** Advance the clock a second at a time while a call is pending, so paced upstreams answer (default off). */
  driveClock?: boolean;
}

export interface CallResult {
  isError?: boolean;
  structuredContent: Record<string, unknown>;
  content: { type: string; text: string }[];
}

export interface ToolHarness {
  runtime: Runtime;
  config: Config;
  clock: ManualClock;
  client: Client;
  /** Every request that reached the (scripted) network, in order. */
  requests: RecordedRequest[];
  logs: LogRecord[];
  /** A tools/call over MCP; `onprogress` receives progress notifications. */
  call(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (p: { progress: number }) => void,
  ): Promise<CallResult>;
  /** The same call through invokeTool, without MCP (what the CLI does). */
  invoke(name: string, args: unknown): Promise<ToolResult>;
  /** Drives the clock (when `driveClock`) until `promise` settles. */
  settle<T>(promise: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Serves the mock routes for requests under any configured base URL, by that base URL's mock prefix; an
 * upstream without a base URL (absolute links) is served under `/<its prefix>/` of any configured origin.
 */
export function mockUpstreamRoute(config: Config, routes: readonly MockRoute[] = ALL_ROUTES): Route {
  const bases = baseUrlSettings().map(([key, v]) => ({ base: new URL(config.baseUrls[key]), prefix: v.mockPrefix }));
  for (const def of UPSTREAMS) {
    if (def.baseUrl || !def.mockPrefix) continue;
    for (const origin of new Set(bases.map((b) => b.base.origin))) {
      bases.push({ base: new URL(`${origin}/${def.mockPrefix}`), prefix: def.mockPrefix });
    }
  }
  return async (request) => {
    for (const { base, prefix } of bases) {
      const below = belowBase(request.url, base);
      if (below === undefined) continue;
      for (const route of routes) {
        if (route.prefix !== prefix) continue;
        const response = await route.handle(toMockRequest(request, below));
        if (response) return response;
      }
    }
    return undefined;
  };
}

function belowBase(url: URL, base: URL): string | undefined {
  if (url.origin !== base.origin) return undefined;
  const root = base.pathname.replace(/\/+$/, "");
  if (url.pathname !== root && !url.pathname.startsWith(`${root}/`)) return undefined;
  return url.pathname.slice(root.length) || "/";
}

export async function toolHarness(options: HarnessOptions = {}): Promise<ToolHarness> {
  const config = testConfig(options.env);
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 2, 1));
  const log = memoryLogger();
  const fetch = scriptedFetch(...(options.routes ?? []), mockUpstreamRoute(config, options.mockRoutes));
  const runtime = createRuntime({ config, fetch, clock, log, provide: options.provide });
  const { client, close } = await connectClient(runtime);
  const settle = <T>(promise: Promise<T>) => options.driveClock ? drive(clock, promise) : promise;
  return {
    runtime,
    config,
    clock,
    client,
    requests: fetch.requests,
    logs: log.records,
    call: (name, args, onprogress) =>
      settle(client.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined)) as Promise<
        CallResult
      >,
    async invoke(name, args) {
      const def = await runtime.catalogue.tool(name);
      if (!def) throw new Error(`no tool ${name} in this runtime`);
      const ctx = toolContext(runtime, { signal: new AbortController().signal, requestId: "harness" });
      return settle(invokeTool(def, args, ctx));
    },
    settle,
    close,
  };
}

/** Runs `body` with a fresh harness and always closes it. */
export async function withTools(options: HarnessOptions, body: (h: ToolHarness) => Promise<void>): Promise<void> {
  const h = await toolHarness(options);
  try {
    await body(h);
  } finally {
    await h.close();
  }
}

/** Advances the clock a second at a time until `promise` settles (at most `maxMs` of fake time). */
export async function drive<T>(clock: ManualClock, promise: Promise<T>, maxMs = 600_000): Promise<T> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let elapsed = 0; !done && elapsed < maxMs; elapsed += 1000) await clock.advance(1000);
  return await promise;
}
