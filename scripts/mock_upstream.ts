/**
 * A real local HTTP server standing in for every upstream, for tests, benchmarks and offline CLI runs.
 * Each upstream lives under a prefix (/ncbi, /pubchem, /arxiv-api, /arxiv-web, /ar5iv, /openalex,
 * /publisher) and answers from the recorded fixtures via scripts/mock_routes. It enforces each
 * upstream's rate (429 + a counted violation when a client is too fast), injects faults on request and
 * logs every request with a timestamp.
 *
 * Run it: `deno run --allow-net=127.0.0.1 --allow-read=. scripts/mock_upstream.ts [--port N] [--no-rates]
 * [--fault ncbi=429;retry-after=2]`, then start the server with the printed environment lines.
 * Control it over HTTP: GET /_mock/requests, GET /_mock/violations, POST /_mock/fault?prefix=ncbi&fault=503&times=2,
 * DELETE /_mock/fault.
 *
 * `createMockUpstream` is the same mock without a socket, for deterministic tests: its `fetch` hands
 * requests straight to the handler, and with a simulated clock (mock_upstream/sim_clock.ts) arrival
 * times, delays and slow bodies follow that clock instead of the machine's speed.
 */
import { ALL_ROUTES } from "./mock_routes/mod.ts";
import type { MockPrefix, MockRoute } from "./mock_routes/types.ts";
import { type Fault, parseFault } from "./mock_upstream/faults.ts";
import { defaultRateRules, RateGate, type RateRule } from "./mock_upstream/rate_gate.ts";
import { type MockClock, type MockLogEntry, serveMockRequest } from "./mock_upstream/handler.ts";
import { inProcessFetch } from "./mock_upstream/in_process.ts";
import { systemClock } from "../src/core/clock.ts";
import type { Fetch } from "../src/upstream/types.ts";
import type { UpstreamName } from "../src/upstreams/mod.ts";

export type { Fault, MockClock, MockLogEntry, RateRule };

export const PREFIXES: readonly MockPrefix[] = [
  "ncbi",
  "pubchem",
  "arxiv-api",
  "arxiv-web",
  "ar5iv",
  "openalex",
  "publisher",
];

/** Which upstream (pacing policy) each prefix stands for: arxiv.org pages and ar5iv share `arxiv-web`. */
export const PREFIX_UPSTREAM: Record<MockPrefix, UpstreamName> = {
  ncbi: "ncbi-eutils",
  pubchem: "pubchem",
  "arxiv-api": "arxiv-api",
  "arxiv-web": "arxiv-web",
  ar5iv: "arxiv-web",
  openalex: "openalex",
  publisher: "publisher",
};

const ENV_PREFIX: [string, MockPrefix][] = [
  ["NCBI_EUTILS_BASE_URL", "ncbi"],
  ["PUBCHEM_BASE_URL", "pubchem"],
  ["ARXIV_API_BASE_URL", "arxiv-api"],
  ["ARXIV_WEB_BASE_URL", "arxiv-web"],
  ["AR5IV_BASE_URL", "ar5iv"],
  ["OPENALEX_BASE_URL", "openalex"],
];

export interface MockUpstreamOptions {
  /** Default 0: the OS picks a free port. */
  port?: number;
  hostname?: string;
  /** Default: every route in scripts/mock_routes (ALL_ROUTES). Routes given here are tried first. */
  routes?: readonly MockRoute[];
  /** Replace ALL_ROUTES instead of adding to it. */
  onlyRoutes?: boolean;
  /**
   * Rate enforcement: default the policy numbers; `false` turns it off; an object overrides some
   * upstreams (e.g. `{ "ncbi-eutils": { intervalMs: 100 } }` for a client with an API key).
   */
  rates?: false | Partial<Record<UpstreamName, RateRule>>;
  /** Share of an interval forgiven for arrival jitter (default 0.1). */
  rateTolerance?: number;
  /** Called for every request once answered (the CLI prints them). */
  onRequest?: (entry: MockLogEntry) => void;
  /** Arrival times, delays and slow bodies; default real time (performance.now, setTimeout). */
  clock?: MockClock;
}

export interface MockUpstream {
  /** `http://127.0.0.1:PORT`; in process, `http://127.0.0.1:9`. */
  url: string;
  /** 9 in process (see IN_PROCESS_URL). */
  port: number;
  /** Sends a request to this mock: over loopback, or straight to its handler in process. */
  fetch: Fetch;
  /** Base-URL variables pointing the server at this mock. */
  env: Record<string, string>;
  /** Every request so far, in arrival order (live array). */
  requests: MockLogEntry[];
  /** Rate violations per upstream name (live object). */
  violations: Partial<Record<UpstreamName, number>>;
  /**
   * Injects a fault on every request under `prefix` (or only the next `times` ones); a string uses the
   * text form of faults.ts. `undefined` clears it.
   */
  setFault(prefix: MockPrefix, fault: Fault | string | undefined, options?: { times?: number }): void;
  clearFaults(): void;
  close(): Promise<void>;
}

/** Monotonic real time, as a socket-served mock measures arrivals. */
const REAL_TIME: MockClock = { now: () => performance.now(), sleep: systemClock.sleep };
/**
 * Loopback literal (no DNS, and the SSRF guard's loopback test seam applies) on the discard port, where
 * nothing listens: a request that bypassed `mock.fetch` would fail loudly instead of reaching anything.
 */
const IN_PROCESS_URL = "http://127.0.0.1:9";

type MockCore = Omit<MockUpstream, "url" | "port" | "env" | "fetch" | "close"> & {
  handle(request: Request): Promise<Response>;
};

function mockCore(options: MockUpstreamOptions): MockCore {
  const rules = options.rates === false ? {} : { ...defaultRateRules(), ...options.rates };
  const gate = new RateGate(rules, options.rateTolerance);
  const faults = new Map<MockPrefix, { fault: Fault; remaining?: number }>();
  const requests: MockLogEntry[] = [];
  const violations: Partial<Record<UpstreamName, number>> = {};
  const routes = options.onlyRoutes ? [...(options.routes ?? [])] : [...(options.routes ?? []), ...ALL_ROUTES];

  const setFault: MockUpstream["setFault"] = (prefix, fault, opts = {}) => {
    if (!PREFIXES.includes(prefix)) throw new Error(`unknown mock prefix '${prefix}' (known: ${PREFIXES.join(", ")})`);
    if (fault === undefined) return void faults.delete(prefix);
    faults.set(prefix, { fault: typeof fault === "string" ? parseFault(fault) : fault, remaining: opts.times });
  };
  const context = {
    clock: options.clock ?? REAL_TIME,
    routes,
    gate,
    requests,
    violations,
    prefixUpstream: PREFIX_UPSTREAM,
    takeFault(prefix: MockPrefix) {
      const armed = faults.get(prefix);
      if (!armed) return undefined;
      if (armed.remaining !== undefined && --armed.remaining <= 0) faults.delete(prefix);
      return armed.fault;
    },
    setFault,
    clearFaults: () => faults.clear(),
    onRequest: options.onRequest,
  };
  return {
    requests,
    violations,
    setFault,
    clearFaults: () => faults.clear(),
    handle: (request) => serveMockRequest(request, context),
  };
}

function envFor(url: string): Record<string, string> {
  return Object.fromEntries(ENV_PREFIX.map(([name, prefix]) => [name, `${url}/${prefix}`]));
}

/** The mock without a socket: point a runtime's `fetch` at `mock.fetch` and its base URLs at `mock.env`. */
export function createMockUpstream(options: Omit<MockUpstreamOptions, "port" | "hostname"> = {}): MockUpstream {
  const { handle, ...core } = mockCore(options);
  return {
    ...core,
    url: IN_PROCESS_URL,
    port: 9,
    env: envFor(IN_PROCESS_URL),
    fetch: inProcessFetch(handle, () => options.clock?.progress?.()),
    close: () => Promise.resolve(),
  };
}

export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const { handle, ...core } = mockCore(options);
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { port: options.port ?? 0, hostname: options.hostname ?? "127.0.0.1", onListen: () => listening.resolve() },
    handle,
  );
  await listening.promise;
  const port = server.addr.port;
  const host = server.addr.hostname.includes(":") ? `[${server.addr.hostname}]` : server.addr.hostname;
  const url = `http://${host}:${port}`;
  return {
    ...core,
    url,
    port,
    env: envFor(url),
    fetch: (request) => fetch(request),
    close: () => server.shutdown(),
  };
}

function parseArgs(args: string[]): { options: MockUpstreamOptions; faults: [MockPrefix, string][] } {
  const options: MockUpstreamOptions = {};
  const faults: [MockPrefix, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--port") options.port = Number(args[++i]);
    else if (arg === "--host") options.hostname = args[++i];
    else if (arg === "--no-rates") options.rates = false;
    else if (arg === "--fault") {
      const [prefix, spec] = (args[++i] ?? "").split(/=(.*)/s, 2);
      faults.push([prefix as MockPrefix, spec]);
    } else throw new Error(`unknown argument '${arg}'; use --port N, --host H, --no-rates, --fault PREFIX=SPEC`);
  }
  return { options, faults };
}

if (import.meta.main) {
  const { options, faults } = parseArgs(Deno.args);
  const mock = await startMockUpstream({
    ...options,
    onRequest: (e) =>
      console.error(
        `${new Date(e.time).toISOString()} ${e.method} ${e.path}${e.query} → ${e.status}` +
          `${e.fault ? ` [fault ${e.fault}]` : ""}${e.violation ? ` [VIOLATION ${e.violation}]` : ""}`,
      ),
  });
  for (const [prefix, spec] of faults) mock.setFault(prefix, spec);
  console.log(`# mock upstream listening on ${mock.url} (port ${mock.port}); point the server at it with:`);
  for (const [name, value] of Object.entries(mock.env)) console.log(`${name}=${value}`);
  const stop = () => mock.close().then(() => Deno.exit(0));
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
}
