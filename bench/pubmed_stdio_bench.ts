/**
 * fetchArticleDetails measured the way issue 24 measured the peer (cyanheads/pubmed-mcp-server 2.7.4 on
 * Node 24: 12.9 ms of CPU per uncached call, over stdio): the real server process over stdio
 * (`deno run -P=stdio mod.ts serve --transport stdio --mock URL`, pacing off), the mock upstream in its own
 * process, sequential 1-PMID calls for PMIDs never asked before, the server process's CPU read from
 * /proc/<pid>/stat around them and each call's latency as the client saw it (raw JSON-RPC lines, no
 * client library). The peer is not run here: its figure comes from the outside run.
 */
import { splitRawRecords } from "../src/sources/ncbi/pubmed/raw.ts";
import { percentile } from "../scripts/load_test/stats.ts";
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const REPO = decodeURIComponent(new URL("..", import.meta.url).pathname);
const BASELINE = new URL("../fixtures/ncbi/pubmed/pubmedparser__medline16n0902.xml", import.meta.url);
/** CPU per uncached call of cyanheads/pubmed-mcp-server 2.7.4 on Node 24, from issue 24's outside run. */
const PEER_CPU_MS = 12.9;
const TARGET_CPU_MS = 0.6 * PEER_CPU_MS;
const encoder = new TextEncoder();

/** A child process whose stdout is read line by line. */
function lines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  return (async () => {
    let buffered = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
        onLine(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
      }
    }
  })();
}

/** `scripts/mock_upstream.ts --port 0 --no-rates` as a subprocess, and its base URL once it listens. */
async function startMock(): Promise<{ url: string; close(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/mock_upstream.ts", "--port", "0", "--no-rates"],
    cwd: REPO,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let resolveUrl: (url: string) => void;
  const url = new Promise<string>((resolve) => (resolveUrl = resolve));
  const reading = lines(child.stdout, (line) => {
    const ncbi = /^export \w+=(http:\/\/[^/\s]+)\/ncbi$/.exec(line);
    if (ncbi) resolveUrl(ncbi[1]);
  });
  const exited = child.status.then(() => {
    throw new Error("the mock upstream exited before printing its URLs");
  });
  return {
    url: await Promise.race([url, exited]),
    async close() {
      child.kill("SIGTERM");
      await child.status;
      await reading.catch(() => {});
    },
  };
}

/** The server as `deno task start:mock` runs it, spoken to in raw JSON-RPC lines. */
async function startServer(mockUrl: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "-P=stdio",
      "--allow-net=127.0.0.1",
      "mod.ts",
      "serve",
      "--transport",
      "stdio",
      "--mock",
      mockUrl,
    ],
    cwd: REPO,
    env: { NCBI_REQUEST_DELAY_MS: "0" }, // otherwise the defaults a user gets: info logs, session log file
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A server that exits fails the pending call with its last words, instead of hanging the bench.
  const stderr = new Response(child.stderr).text();
  const exited = child.status.then(async (status) => {
    throw new Error(`the server exited (${status.code}): ${(await stderr).trim().slice(-400)}`);
  });
  exited.catch(() => {});
  const writer = child.stdin.getWriter();
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const reading = lines(child.stdout, (line) => {
    const message = JSON.parse(line);
    if (typeof message.id === "number") waiting.get(message.id)?.(message);
  });
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>) => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    await writer.write(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`));
    const message = await Promise.race([answer, exited]);
    waiting.delete(id);
    return message;
  };
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "pubmed-stdio-bench", version: "1" },
  });
  await writer.write(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`));
  return {
    /** One fetchArticleDetails call; its wall time in ms. A failed call throws, so a broken run cannot pass. */
    async fetch(pmid: string): Promise<number> {
      const started = performance.now();
      const reply = await request("tools/call", { name: "fetchArticleDetails", arguments: { pmids: [pmid] } });
      const ms = performance.now() - started;
      const result = reply.result as { isError?: boolean; structuredContent?: { articles?: unknown[] } } | undefined;
      if (!result || result.isError || result.structuredContent?.articles?.length !== 1) {
        throw new Error(`fetchArticleDetails ${pmid}: ${JSON.stringify(reply).slice(0, 300)}`);
      }
      return ms;
    },
    /** The server process's CPU (user + system) so far, in ms (10 ms ticks). */
    async cpuMs(): Promise<number> {
      const fields = (await Deno.readTextFile(`/proc/${child.pid}/stat`)).split(") ")[1].split(" ");
      return 10 * (Number(fields[11]) + Number(fields[12]));
    },
    async close() {
      await writer.close().catch(() => {});
      await child.status;
      await reading.catch(() => {});
      await stderr;
    },
  };
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} pubmed_stdio`;
  if (Deno.build.os !== "linux") {
    return [{ name: "pubmed over stdio: skipped", value: NaN, unit: "", notes: "needs /proc" }];
  }
  const pmids = [...splitRawRecords(await Deno.readTextFile(BASELINE)).keys()];
  const warmUp = 10;
  const rounds = options.quick ? 2 : 5;
  const perRound = options.quick ? 20 : 40;
  const mock = await startMock();
  const server = await startServer(mock.url);
  try {
    // The first calls load the pubmed modules and warm the JIT: the peer's figure is a steady state too.
    for (const pmid of pmids.slice(0, warmUp)) await server.fetch(pmid);
    const cpu: number[] = [];
    const latency: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const ids = pmids.slice(warmUp + r * perRound, warmUp + (r + 1) * perRound);
      const before = await server.cpuMs();
      for (const pmid of ids) latency.push(await server.fetch(pmid));
      cpu.push((await server.cpuMs() - before) / ids.length);
    }
    // Every measured call counts (the mean), warm-up after the first ten included: a steady-state median
    // would flatter us against a peer figure whose method is not known in that detail.
    const cpuMs = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    const how = `${rounds} rounds of ${perRound} sequential uncached 1-PMID calls after ${warmUp} to warm up; ` +
      "server process over stdio (-P=stdio, --mock), mock upstream in its own process, pacing off";
    const peer = `the peer's ${PEER_CPU_MS} ms per call (cyanheads/pubmed-mcp-server 2.7.4, Node 24) comes from ` +
      "issue 24's outside run over stdio, not from this benchmark";
    return [
      {
        name: "pubmed over stdio: server CPU per uncached fetchArticleDetails (1 PMID)",
        value: cpuMs,
        unit: "ms",
        target: `≤ ${TARGET_CPU_MS.toFixed(2)} ms (0.6× the peer's ${PEER_CPU_MS} ms)`,
        pass: cpuMs <= TARGET_CPU_MS,
        command,
        notes: `mean per call over all ${rounds * perRound} calls (/proc/<pid>/stat, 10 ms ticks); per round: ${
          cpu.map((c) => c.toFixed(2)).join(", ")
        } ms, median ${median(cpu).toFixed(2)}; ${(cpuMs / PEER_CPU_MS).toFixed(2)}× the peer; ${how}; ${peer}`,
      },
      {
        name: "pubmed over stdio: uncached fetchArticleDetails latency, p50",
        value: percentile(latency, 50),
        unit: "ms",
        command,
        notes: `${latency.length} calls; client → stdio → server → local HTTP mock → back`,
      },
      {
        name: "pubmed over stdio: uncached fetchArticleDetails latency, p99",
        value: percentile(latency, 99),
        unit: "ms",
        command,
        notes: `${latency.length} calls, max ${Math.max(...latency).toFixed(1)} ms; issue 24's outside run put ` +
          "our p99 at 1.4–1.5× the peer's (the peer's own figure is not restated there)",
      },
    ];
  } finally {
    await server.close();
    await mock.close();
  }
}
