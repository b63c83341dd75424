/**
 * MCP-level wiring for the PubChem tool tests: a real SDK client over the real runtime and upstream
 * pipeline, with a scripted fetch answering PubChem paths from fixtures (or from the mock routes).
 * Time is a ManualClock that each call drives forward until the call settles, so pacing, retries and
 * ListKey polls cost no wall time while keeping their order.
 */
import { pubchemRoutes } from "../../../scripts/mock_routes/pubchem.ts";
import { ManualClock } from "../../../src/core/clock.ts";
import type { Client } from "../../../src/sdk_client.ts";
import { toMockRequest } from "../../helpers/mock_routes.ts";
export { errorOf } from "../../helpers/tool_result.ts";
import { connectClient, type RecordedRequest, type Route, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";
import { pubchemFixture } from "../../sources/pubchem/fakes.ts";

export const MOCK_BASE = "http://mock.test/pubchem";

export interface ToolCall {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

export interface Harness {
  client: Client;
  clock: ManualClock;
  requests: RecordedRequest[];
  /** Calls a tool, driving the clock until it answers; `progress` collects progress notifications. */
  call(name: string, args: Record<string, unknown>, progress?: number[]): Promise<ToolCall>;
  /** Drives the clock until `promise` settles (for resource reads and other requests). */
  settle<T>(promise: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A connected client whose PubChem requests are answered by `routes` (paths below `/rest`). */
export function pubchemHarness(...routes: Route[]): Promise<Harness> {
  return harness(scriptedFetch(...routes));
}

async function harness(fetch: ReturnType<typeof scriptedFetch>, env: Record<string, string> = {}): Promise<Harness> {
  const clock = new ManualClock(1_700_000_000_000);
  const { client, close } = await connectClient(testRuntime({ fetch, clock, env }));
  const settle = <T>(promise: Promise<T>) => drive(clock, promise);
  return {
    client,
    clock,
    requests: fetch.requests,
    settle,
    call: async (name, args, progress) => {
      const onprogress = progress ? (p: { progress: number }) => void progress.push(p.progress) : undefined;
      return await settle(client.callTool({ name, arguments: args }, { onprogress })) as ToolCall;
    },
    close,
  };
}

/** Advances manual time a second at a time until `promise` settles (at most a simulated hour). */
async function drive<T>(clock: ManualClock, promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(() => (settled = true), () => (settled = true));
  await clock.advance(0);
  for (let step = 0; !settled && step < 3600; step++) await clock.advance(1000);
  return await promise;
}

/** A connected client whose PubChem base URL points at the mock routes of scripts/mock_routes/pubchem.ts. */
export function mockRoutesHarness(): Promise<Harness> {
  return harness(mockRoutesFetch(), { PUBCHEM_BASE_URL: MOCK_BASE });
}

/** A scripted fetch that hands requests below {@link MOCK_BASE} to the PubChem mock routes. */
export function mockRoutesFetch(): ReturnType<typeof scriptedFetch> {
  return scriptedFetch((req) => {
    if (!req.url.pathname.startsWith("/pubchem/")) return undefined;
    const mock = toMockRequest(req, req.url.pathname.slice("/pubchem".length));
    return Promise.resolve(pubchemRoutes[0].handle(mock))
      .then((response) => response ?? new Response(`no mock route for ${mock.path}`, { status: 599 }));
  });
}

/** Answers requests whose path (below the PubChem base `/rest`) matches, with a fixture. */
export function reply(path: string | RegExp, fixtureName: string, status = 200, headers: HeadersInit = {}): Route {
  return (req) => {
    const p = req.url.pathname.replace(/^\/rest/, "");
    const hit = typeof path === "string" ? p === path : path.test(p);
    if (!hit) return undefined;
    return new Response(pubchemFixture(fixtureName), {
      status,
      headers: { "content-type": "application/json", ...Object.fromEntries(new Headers(headers)) },
    });
  };
}

/** PubChem's ServerBusy fault for every request. */
export const busy: Route = () =>
  new Response(pubchemFixture("built__fault_server_busy.json"), {
    status: 503,
    headers: { "content-type": "application/json" },
  });
