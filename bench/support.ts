/**
 * Set-up shared by the end-to-end benchmarks: a real server with the real pipeline, talking to the mock
 * upstream over local HTTP, reached by an SDK client through an in-memory transport — so what is timed is
 * what an MCP client would see, minus the wire. Not a `*_bench.ts` file, so bench/main.ts does not run it.
 */
import process from "node:process";
import { type MockUpstream, type MockUpstreamOptions, startMockUpstream } from "../scripts/mock_upstream.ts";
import { loadConfig, mockBaseUrls } from "../src/config.ts";
import { systemClock } from "../src/core/clock.ts";
import { createLogger } from "../src/core/log.ts";
import { createRuntime } from "../src/runtime.ts";
import { Client, InMemoryTransport } from "../src/sdk_client.ts";
import { createMcpServer } from "../src/server.ts";

export interface BenchSession {
  mock: MockUpstream;
  /** Calls a tool and returns its structuredContent; a tool error throws, so a failing run cannot pass. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts the mock upstream and a server configured against it (plus `env`), and connects a client.
 *
 * @example
 * const session = await openBenchSession("gene-bench", { SCIENCE_MCP_TOOLSETS: "gene" });
 * try { await session.call("search_genes", { query: "TP53" }); } finally { await session.close(); }
 */
export async function openBenchSession(
  clientName: string,
  env: Record<string, string>,
  mockOptions: MockUpstreamOptions = {},
): Promise<BenchSession> {
  const mock = await startMockUpstream(mockOptions);
  const runtime = createRuntime({
    config: loadConfig({ ...mock.env, ...env }),
    fetch: (request) => fetch(request),
    clock: systemClock,
    log: createLogger({ level: "error", sinks: [] }),
  });
  const server = createMcpServer(runtime);
  const client = new Client({ name: clientName, version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    mock,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
      return result.structuredContent as Record<string, unknown>;
    },
    async close() {
      await client.close();
      await server.close();
      await runtime.close();
      await mock.close();
    },
  };
}

/**
 * A server session against the mock upstream run as its own process (`deno task mock`), driven with raw
 * JSON-RPC over the in-memory transport (no client library validating each answer; each answer serialized
 * once, as a stdio or HTTP transport would), so this process's CPU is the server's.
 */
export interface ProcessBenchSession extends Omit<BenchSession, "mock"> {
  /** CPU (user + system) this process has used so far, in ms: the server's, not the mock's. */
  cpuMs(): number;
  /** Characters of every answer received, serialized. */
  wireChars(): number;
}

/**
 * Starts `scripts/mock_upstream.ts --port 0 --no-rates` as a subprocess and a server against it (plus
 * `env`) in this process, and opens an MCP session: CPU measured here (`cpuMs`) leaves out the mock's work.
 */
export async function openProcessBenchSession(
  clientName: string,
  env: Record<string, string>,
): Promise<ProcessBenchSession> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/mock_upstream.ts", "--port", "0", "--no-rates"],
    cwd: new URL("../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const expected = Object.keys(mockBaseUrls("http://x")).length;
  const mockEnv: Record<string, string> = {};
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = child.stdout.getReader();
  while (Object.keys(mockEnv).length < expected) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the mock upstream exited before printing its URLs");
    buffered += decoder.decode(value, { stream: true });
    for (const match of buffered.matchAll(/^export (\w+)=(\S+)$/gm)) mockEnv[match[1]] = match[2];
  }
  reader.releaseLock();
  const drained = child.stdout.pipeTo(new WritableStream()).catch(() => {});
  const runtime = createRuntime({
    config: loadConfig({ ...mockEnv, ...env }),
    fetch: (request) => fetch(request),
    clock: systemClock,
    log: createLogger({ level: "error", sinks: [] }),
  });
  const server = createMcpServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let wireChars = 0;
  clientSide.onmessage = (message) => {
    wireChars += JSON.stringify(message).length; // what a stdio or HTTP transport would write: its cost counts
    const { id } = message as { id?: unknown };
    if (typeof id === "number") waiting.get(id)?.(message as Record<string, unknown>);
  };
  await clientSide.start();
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>) => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    await clientSide.send({ jsonrpc: "2.0", id, method, params });
    try {
      const message = await answer;
      if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
      return message.result as Record<string, unknown>;
    } finally {
      waiting.delete(id);
    }
  };
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: clientName, version: "1.0.0" },
  });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    cpuMs() {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    async call(name, args) {
      const result = await request("tools/call", { name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
      return result.structuredContent as Record<string, unknown>;
    },
    wireChars: () => wireChars,
    async close() {
      await clientSide.close();
      await server.close();
      await runtime.close();
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}

/** Rate violations the mock counted, over every upstream. */
export function totalViolations(mock: MockUpstream): number {
  return Object.values(mock.violations).reduce((a, b) => a + (b ?? 0), 0);
}

/** Most of the sorted-or-not `times` (ms) that fall in any window of `windowMs` (half-open, as the mock counts). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** The median (mean of the two middle values for an even count). */
/**
 * Both measurements of round `round`, taken in turn: `a` first in even rounds, `b` first in odd ones, so
 * neither side always runs on the warmer (or the busier) machine.
 */
export async function alternately<A, B>(round: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (round % 2 === 0) {
    const first = await a();
    return [first, await b()];
  }
  const second = await b();
  return [await a(), second];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
