/**
 * One request through the mock upstream: control endpoints, prefix → upstream, rate check, fault
 * injection, route lookup, request log.
 */
import type { MockPrefix, MockRequest, MockRoute } from "../mock_routes/types.ts";
import type { UpstreamName } from "../../src/upstreams/mod.ts";
import type { Clock } from "../../src/core/clock.ts";
import { alter, type Fault, faultLabel, parseFault, replacementFor } from "./faults.ts";
import type { RateGate } from "./rate_gate.ts";

export interface MockLogEntry {
  /** Wall-clock arrival (ms since the epoch). */
  time: number;
  /** Arrival on the mock's clock (monotonic, ms): use this for spacing. */
  at: number;
  method: string;
  prefix?: MockPrefix;
  upstream?: UpstreamName;
  /** Path below the prefix. */
  path: string;
  /** Query string as sent, with its leading `?` (empty when none). */
  query: string;
  /** Query and form parameters merged (last value wins). */
  params: Record<string, string>;
  headers: Record<string, string>;
  status: number;
  /** The route that answered. */
  route?: string;
  fault?: string;
  violation?: string;
  /** Time to produce the response head. */
  ms: number;
}

/**
 * The mock's time: arrival stamps, delays and slow bodies. A simulated clock (SimClock) is also told
 * what it cannot see: `hold` while a route reads its fixtures, `progress` for each body chunk delivered.
 */
export interface MockClock extends Clock {
  hold?<T>(work: Promise<T>): Promise<T>;
  progress?(): void;
}

export interface HandlerContext {
  clock: MockClock;
  routes: readonly MockRoute[];
  gate: RateGate;
  requests: MockLogEntry[];
  violations: Partial<Record<UpstreamName, number>>;
  prefixUpstream: Record<MockPrefix, UpstreamName>;
  takeFault(prefix: MockPrefix): Fault | undefined;
  setFault(prefix: MockPrefix, fault: string | undefined, options?: { times?: number }): void;
  clearFaults(): void;
  onRequest?: (entry: MockLogEntry) => void;
}

const FAULT_PARAM = "mock_fault";
const FAULT_HEADER = "x-mock-fault";

export async function serveMockRequest(request: Request, ctx: HandlerContext): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/_mock/")) return control(request, url, ctx);
  const time = Date.now();
  const at = ctx.clock.now();
  const [, first = "", ...rest] = url.pathname.split("/");
  const prefix = first as MockPrefix;
  const body = request.body ? await request.text() : "";
  const params = new URLSearchParams(url.search);
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(body)) params.append(k, v);
  }
  const perRequestFault = request.headers.get(FAULT_HEADER) ?? params.get(FAULT_PARAM);
  params.delete(FAULT_PARAM);
  const entry: MockLogEntry = {
    time,
    at,
    method: request.method,
    path: `/${rest.join("/")}`,
    query: url.search,
    params: Object.fromEntries(params),
    headers: Object.fromEntries(request.headers),
    status: 0,
    ms: 0,
  };
  ctx.requests.push(entry);

  const upstream = ctx.prefixUpstream[prefix];
  let response: Response;
  if (!upstream) {
    entry.path = url.pathname;
    response = notFound(
      `mock upstream: unknown prefix in ${url.pathname}; known prefixes: ${
        Object.keys(ctx.prefixUpstream).map((p) => `/${p}`).join(", ")
      }`,
    );
  } else {
    entry.prefix = prefix;
    entry.upstream = upstream;
    const violation = ctx.gate.arrive(upstream, at);
    try {
      if (violation) {
        entry.violation = violation;
        ctx.violations[upstream] = (ctx.violations[upstream] ?? 0) + 1;
        response = rateLimited(upstream, violation);
      } else {
        response = await answer(
          { method: request.method, path: entry.path, params, url, body },
          prefix,
          perRequestFault,
          entry,
          { ...ctx, signal: request.signal },
        );
      }
    } finally {
      ctx.gate.done(upstream);
    }
  }
  entry.status = response.status;
  entry.ms = ctx.clock.now() - at;
  ctx.onRequest?.(entry);
  return response;
}

async function answer(
  mock: MockRequest,
  prefix: MockPrefix,
  perRequestFault: string | null,
  entry: MockLogEntry,
  ctx: HandlerContext & { signal: AbortSignal },
): Promise<Response> {
  // A client that gave up (timeout, disconnect) also ends the waits of its delay and slow-body faults.
  const sleep = (ms: number) => ctx.clock.sleep(ms, ctx.signal).catch(() => {});
  let fault: Fault | undefined;
  try {
    fault = perRequestFault ? parseFault(perRequestFault) : ctx.takeFault(prefix);
  } catch (error) {
    return new Response((error as Error).message, { status: 400 });
  }
  if (fault) {
    entry.fault = faultLabel(fault);
    const replacement = replacementFor(fault);
    if (replacement) return replacement;
    if (fault.kind === "delay") await sleep(fault.ms);
  }
  const routed = route(mock, prefix, entry, ctx.routes);
  const response = await (ctx.clock.hold ? ctx.clock.hold(routed) : routed);
  return fault ? await alter(fault, response, sleep) : response;
}

async function route(mock: MockRequest, prefix: MockPrefix, entry: MockLogEntry, routes: readonly MockRoute[]) {
  const candidates = routes.filter((r) => r.prefix === prefix);
  for (const r of candidates) {
    const response = await r.handle(mock);
    if (response) {
      entry.route = r.name;
      return response;
    }
  }
  const names = candidates.map((r) => r.name).join("; ") || "none yet";
  return notFound(
    `mock upstream: no route for ${mock.method} /${prefix}${mock.path}${mock.url.search} (routes under /${prefix}: ${names})`,
  );
}

/** What each service sends when a client is too fast (NCBI's JSON shape; a plain 429 elsewhere). */
function rateLimited(upstream: UpstreamName, violation: string): Response {
  if (upstream === "ncbi-eutils") {
    return Response.json({ error: "API rate limit exceeded", "api-key": "127.0.0.1", detail: violation }, {
      status: 429,
    });
  }
  return new Response(`mock upstream: rate limit exceeded for ${upstream}: ${violation}`, {
    status: 429,
    headers: { "content-type": "text/plain" },
  });
}

function notFound(message: string): Response {
  return new Response(message, { status: 404, headers: { "content-type": "text/plain" } });
}

/** GET /_mock/requests, GET /_mock/violations, POST|DELETE /_mock/fault?prefix=&fault=&times= */
function control(request: Request, url: URL, ctx: HandlerContext): Response {
  const q = url.searchParams;
  try {
    if (url.pathname === "/_mock/requests" && request.method === "GET") return Response.json(ctx.requests);
    if (url.pathname === "/_mock/violations" && request.method === "GET") return Response.json(ctx.violations);
    if (url.pathname === "/_mock/fault" && request.method === "POST") {
      const times = q.get("times");
      ctx.setFault(q.get("prefix") as MockPrefix, q.get("fault") ?? undefined, {
        times: times ? Number(times) : undefined,
      });
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/_mock/fault" && request.method === "DELETE") {
      const prefix = q.get("prefix");
      if (prefix) ctx.setFault(prefix as MockPrefix, undefined);
      else ctx.clearFaults();
      return new Response(null, { status: 204 });
    }
  } catch (error) {
    return new Response((error as Error).message, { status: 400 });
  }
  return notFound("mock control endpoints: GET /_mock/requests, GET /_mock/violations, POST|DELETE /_mock/fault");
}
