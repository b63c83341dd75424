/**
 * One isolated world per case: its own mock upstream (so a fault armed for one case never leaks into
 * another running at the same time), its own runtime (so no cache hit hides a fault) and a real SDK
 * Client talking to the real MCP server over an in-memory transport — the same path as stdio and HTTP.
 * The mock runs in process and the world on simulated time (SimClock): every policy number keeps its
 * real value (a 30 s timeout, arXiv's 3 s spacing, a 120 s Retry-After), time only moves when everything
 * waits for it, so an outcome never depends on how fast or busy the machine is, and storms cost no time.
 */
import { type Env, loadConfig } from "../../src/config.ts";
import { createLogger, type LogRecord } from "../../src/core/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { Client, InMemoryTransport } from "../../src/sdk_client.ts";
import { createMcpServer } from "../../src/server.ts";
import { PAPERS_DEPS, type PapersDeps } from "../../src/tools/papers/deps.ts";
import { createMockUpstream, type MockUpstream, PREFIX_UPSTREAM } from "../mock_upstream.ts";
import type { MockPrefix, MockRoute } from "../mock_routes/types.ts";
import { SimClock } from "../mock_upstream/sim_clock.ts";

export interface CallOutcome {
  isError: boolean;
  structured: Record<string, unknown> | undefined;
  text: string;
  /** A protocol-level failure (thrown by the client): never acceptable. */
  thrown?: string;
  ms: number;
}

export interface World {
  mock: MockUpstream;
  runtime: Runtime;
  client: Client;
  clock: SimClock;
  /** Error-level log records of the runtime (INTERNAL failures log their stack here). */
  errors: LogRecord[];
  call(name: string, args: unknown): Promise<CallOutcome>;
  /** tools/list through the world's clock. */
  listTools(): Promise<unknown>;
  close(): Promise<void>;
}

export interface WorldOptions {
  /** Extra environment for loadConfig (timeouts, retries, size caps). */
  env?: Env;
  /** Mock routes tried before the recorded ones. */
  routes?: readonly MockRoute[];
}

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

export async function openWorld(options: WorldOptions): Promise<World> {
  // The matrix is not about pacing (bench/pacing_bench.ts is): the rate referee stays off.
  const clock = new SimClock();
  const mock = createMockUpstream({ rates: false, routes: options.routes, clock });
  const errors: LogRecord[] = [];
  const log = createLogger({ level: "error", sinks: [(r) => void errors.push(r)] });
  // Simulated time jumps while real work (PDF extraction) runs: no call deadline here.
  const config = loadConfig({
    PDF_ROOT,
    NCBI_MAX_RETRIES: "1",
    TOOL_CALL_TIMEOUT_MS: "0",
    ...mock.env,
    ...options.env,
  });
  const runtime = createRuntime({ config, fetch: mock.fetch, clock, log });
  // Publisher links of the mock point at its own /publisher prefix on 127.0.0.1: the papers toolset's
  // declared test seam lets them through its SSRF guard. Nothing here ever leaves the process.
  runtime.shared<PapersDeps>(PAPERS_DEPS, () => ({ allowLoopbackPublisher: true }));
  const server = createMcpServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "fault-matrix", version: "1.0.0" });
  await server.connect(serverSide);
  await client.connect(clientSide);

  async function call(name: string, args: unknown): Promise<CallOutcome> {
    const started = performance.now();
    try {
      // The SDK's own request timeout runs on real timers: far beyond any simulated wait's real cost.
      const result = await clock.run(client.callTool({ name, arguments: args as Record<string, unknown> }, {
        timeout: 600_000,
      }));
      const content = (result.content ?? []) as { type: string; text?: string }[];
      return {
        isError: result.isError === true,
        structured: result.structuredContent as Record<string, unknown> | undefined,
        text: content.map((c) => c.text ?? "").join("\n"),
        ms: performance.now() - started,
      };
    } catch (error) {
      return { isError: true, structured: undefined, text: "", thrown: String(error), ms: performance.now() - started };
    }
  }

  return {
    mock,
    runtime,
    client,
    clock,
    errors,
    call,
    listTools: () => clock.run(client.listTools(undefined, { timeout: 600_000 })),
    async close() {
      await client.close().catch(() => {});
      await server.close().catch(() => {});
      await runtime.close();
      await mock.close();
    },
  };
}

/** Upstream names (pacing queues) behind a set of prefixes: ar5iv and arxiv-web share one. */
export function upstreamsOf(prefixes: Iterable<MockPrefix>): Set<string> {
  return new Set([...prefixes].map((p) => PREFIX_UPSTREAM[p]));
}

/** Prefixes that served a request, in first-use order. */
export function prefixesHit(mock: MockUpstream): MockPrefix[] {
  return [...new Set(mock.requests.map((r) => r.prefix).filter((p): p is MockPrefix => p !== undefined))];
}
