/**
 * A real local HTTP server standing in for every upstream, for tests, benchmarks and offline CLI runs.
 * Each upstream lives under a prefix (/ncbi, /idconv, /pubchem, /arxiv-api, /arxiv-web, /ar5iv, /openalex,
 * /publisher) and answers from the recorded fixtures via scripts/mock_routes. It enforces each
 * upstream's published rate at arrival, strictly (429 + a counted violation when more requests arrive in
 * a window than the service allows; see mock_upstream/rate_gate.ts), injects faults on request and logs
 * every request with its arrival time.
 *
 * Run it: `deno task mock [--port N] [--no-rates] [--fault ncbi=429;retry-after=2]` (port 8787 unless
 * told; 0 picks a free one). It prints one `export NAME=value` line per base URL of the upstream table:
 * paste them into the shell that runs `deno task cli`, or start the server with `deno task start:mock`.
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
import { mockBaseUrls } from "../src/config.ts";
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
  "idconv",
  "europepmc",
  "crossref",
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
  idconv: "ncbi-idconv",
  europepmc: "europepmc",
  crossref: "crossref",
};

/** The port `deno task mock` listens on unless told otherwise (`deno task start:mock` expects it). */
export const MOCK_PORT = 8787;

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
  const gate = new RateGate(rules);
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

/** The mock without a socket: point a runtime's `fetch` at `mock.fetch` and its base URLs at `mock.env`. */
export function createMockUpstream(options: Omit<MockUpstreamOptions, "port" | "hostname"> = {}): MockUpstream {
  const { handle, ...core } = mockCore(options);
  return {
    ...core,
    url: IN_PROCESS_URL,
    port: 9,
    env: mockBaseUrls(IN_PROCESS_URL),
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
    env: mockBaseUrls(url),
    fetch: (request) => fetch(request),
    close: () => server.shutdown(),
  };
}

/** A mistake on the command line: one line on stderr, exit 2. */
class MockUsageError extends Error {}

function parseArgs(args: string[]): { options: MockUpstreamOptions; faults: [MockPrefix, string][] } {
  const options: MockUpstreamOptions = { port: MOCK_PORT };
  const faults: [MockPrefix, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--port") options.port = parsePort(args[++i]);
    else if (arg.startsWith("--port=")) options.port = parsePort(arg.slice(7));
    else if (arg === "--host") options.hostname = args[++i];
    else if (arg === "--no-rates") options.rates = false;
    else if (arg === "--fault") {
      const [prefix, spec] = (args[++i] ?? "").split(/=(.*)/s, 2);
      if (!PREFIXES.includes(prefix as MockPrefix) || !spec) {
        throw new MockUsageError(`--fault wants PREFIX=SPEC with PREFIX one of ${PREFIXES.join(", ")}`);
      }
      faults.push([prefix as MockPrefix, spec]);
    } else {throw new MockUsageError(
        `unknown argument '${arg}'; use --port N, --host H, --no-rates, --fault PREFIX=SPEC`,
      );}
  }
  return { options, faults };
}

function parsePort(value: string | undefined): number {
  if (!/^\d{1,5}$/.test(value ?? "") || Number(value) > 65535) {
    throw new MockUsageError(`--port wants a number from 0 to 65535 (0: any free port), not '${value ?? ""}'`);
  }
  return Number(value);
}

/** The lines `deno task mock` prints on stdout: copy-paste ready for a POSIX shell. */
export function exportLines(mock: Pick<MockUpstream, "url" | "env">): string[] {
  return [
    `# mock upstream on ${mock.url}; paste these lines into the shell that runs the server or the CLI:`,
    ...Object.entries(mock.env).map(([name, value]) => `export ${name}=${value}`),
  ];
}

async function main(args: string[]): Promise<void> {
  const { options, faults } = parseArgs(args);
  let mock: MockUpstream;
  try {
    mock = await startMockUpstream({
      ...options,
      onRequest: (e) =>
        console.error(
          `${new Date(e.time).toISOString()} ${e.method} ${e.path}${e.query} → ${e.status}` +
            `${e.fault ? ` [fault ${e.fault}]` : ""}${e.violation ? ` [VIOLATION ${e.violation}]` : ""}`,
        ),
    });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new MockUsageError(`port ${options.port} is already in use; stop what listens there or pass --port N`);
    }
    throw error;
  }
  for (const [prefix, spec] of faults) {
    try {
      mock.setFault(prefix, spec);
    } catch (error) {
      await mock.close();
      throw new MockUsageError(`--fault ${prefix}=${spec}: ${(error as Error).message}`);
    }
  }
  for (const line of exportLines(mock)) console.log(line);
  const stop = () => mock.close().then(() => Deno.exit(0));
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  await main(Deno.args).catch((error) => {
    if (!(error instanceof MockUsageError)) throw error;
    console.error(`mock: ${error.message}`);
    Deno.exit(2);
  });
}
