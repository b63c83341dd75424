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
import { alternately, median } from "./support.ts";
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

/** A stdio MCP server process spoken to in raw JSON-RPC lines (no client library), its CPU read from /proc. */
interface StdioProcess {
  /** One request; its answer (the whole JSON-RPC message). A server that exits fails it with its last words. */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The process's CPU (user + system, every thread) so far, in ms (10 ms ticks). */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** Spawns `deno <args>` in the repository and completes the MCP handshake. */
async function startStdioProcess(args: string[], env: Record<string, string>): Promise<StdioProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A server that exits fails the pending call with its last words, instead of hanging the bench.
  const stderr = new Response(child.stderr).text();
  const exited = child.status.then(async (status) => {
    throw new Error(`deno ${args.join(" ")} exited (${status.code}): ${(await stderr).trim().slice(-400)}`);
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
    request,
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

type CallResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** One tools/call; its wall time and result. A failed call throws, so a broken run cannot pass. */
async function call(server: StdioProcess, name: string, args: Record<string, unknown>, ok: (r: CallResult) => boolean) {
  const started = performance.now();
  const reply = await server.request("tools/call", { name, arguments: args });
  const ms = performance.now() - started;
  const result = reply.result as CallResult | undefined;
  if (!result || result.isError || !ok(result)) {
    throw new Error(`${name} ${JSON.stringify(args)}: ${JSON.stringify(reply).slice(0, 300)}`);
  }
  return { ms, result };
}

/** The server as `deno task start:mock` runs it (default settings: info logs, session log file), pacing off. */
async function startServer(mockUrl: string) {
  const server = await startStdioProcess(
    ["run", "-q", "-P=stdio", "--allow-net=127.0.0.1", "mod.ts", "serve", "--transport", "stdio", "--mock", mockUrl],
    { NCBI_REQUEST_DELAY_MS: "0" },
  );
  return {
    ...server,
    /** One uncached-or-not fetchArticleDetails of one PMID. */
    fetch: (pmid: string) =>
      call(server, "fetchArticleDetails", { pmids: [pmid] }, (r) => {
        const articles = r.structuredContent?.articles;
        return Array.isArray(articles) && articles.length === 1;
      }),
    /** One searchPubMedArticles call (ESearch only: no summaries asked). */
    search: (queryTerm: string) =>
      call(server, "searchPubMedArticles", { queryTerm }, (r) => Array.isArray(r.structuredContent?.pmids)),
  };
}

/**
 * CPU per call of `calls` sequential calls made by `each`, on `server`: (CPU after − CPU before) / calls.
 */
async function cpuPerCall<T>(server: StdioProcess, items: readonly T[], each: (item: T) => Promise<unknown>) {
  const before = await server.cpuMs();
  for (const item of items) await each(item);
  return (await server.cpuMs() - before) / items.length;
}

/**
 * The #36 rows before its cuts, for the notes: main at 9caa80a with these bench modules, two runs interleaved with
 * two of the cuts (docs/benchmarks.md, "Fixed costs (#36)").
 */
const BEFORE_36 = "before #36's cuts (main 9caa80a, `deno task bench pubmed_stdio`, 2026-11-28 19:53–19:55 UTC, " +
  "load 0.1–1.0, two runs interleaved with two after them)";

/** A search ÷ fetch ratio row's target (#36): a search may cost no more server CPU than a 1-PMID fetch. */
const SEARCH_RATIO_TARGET = 1.0;
/** A memo hit ÷ the no-op server's call of the same answer (#36). */
const MEMO_RATIO_TARGET = 1.5;

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} pubmed_stdio`;
  if (Deno.build.os !== "linux") {
    return [{ name: "pubmed over stdio: skipped", value: NaN, unit: "", notes: "needs /proc" }];
  }
  const pmids = [...splitRawRecords(await Deno.readTextFile(BASELINE)).keys()];
  const warmUp = 10;
  // At least 5 interleaved rounds (#36); 100 calls a round, so 10 ms ticks resolve ~3 % of a round.
  const rounds = 5;
  const perRound = options.quick ? 40 : 100;
  // A hit costs well under a millisecond: 10 ms ticks need hundreds of calls per round to resolve it.
  const hitsPerRound = options.quick ? 200 : 500;
  const mock = await startMock();
  const server = await startServer(mock.url);
  const answerFile = await Deno.makeTempFile({ prefix: "memo-hit-", suffix: ".json" });
  let noop: StdioProcess | undefined;
  try {
    // The first calls load the pubmed modules and warm the JIT: the peer's figure is a steady state too.
    for (const pmid of pmids.slice(0, warmUp)) await server.fetch(pmid);
    // The ratio rows compare steady states: both paths warmed further, on PMIDs and terms not measured.
    const spare = pmids.slice(warmUp + rounds * perRound);
    for (const pmid of spare.slice(0, 3 * warmUp)) await server.fetch(pmid);
    for (let i = 0; i < 4 * warmUp; i++) await server.search(`warm up ${i}`);
    // Alternating rounds: fetches of PMIDs never asked before, then searches with terms never asked before
    // (each a new ESearch the mock answers with its recorded listing); the order swaps every round.
    const fetchCpu: number[] = [];
    const searchCpu: number[] = [];
    const latency: number[] = [];
    let term = 0;
    for (let r = 0; r < rounds; r++) {
      const ids = pmids.slice(warmUp + r * perRound, warmUp + (r + 1) * perRound);
      const terms = ids.map(() => `biopython round ${r} term ${term++}`);
      const fetches = () => cpuPerCall(server, ids, async (pmid) => latency.push((await server.fetch(pmid)).ms));
      const searches = () => cpuPerCall(server, terms, (t) => server.search(t));
      const [fetchMs, searchMs] = await alternately(r, fetches, searches);
      fetchCpu.push(fetchMs);
      searchCpu.push(searchMs);
    }

    // A memo hit: the same 1-PMID call again. Its answer, captured, is what the no-op server answers.
    const hitArgs = { pmids: [pmids[0]] };
    const hit = await server.request("tools/call", { name: "fetchArticleDetails", arguments: hitArgs });
    await Deno.writeTextFile(answerFile, JSON.stringify(hit.result));
    const answerChars = JSON.stringify(hit).length;
    const floor = await startStdioProcess(
      ["run", "-q", `--allow-read=${answerFile}`, "bench/fixtures/noop_tool_server.ts", answerFile],
      {},
    );
    noop = floor;
    const same = (r: CallResult) => JSON.stringify(r) === JSON.stringify(hit.result);
    const hitOnce = () => call(server, "fetchArticleDetails", hitArgs, same);
    const noopOnce = () => call(floor, "fetchArticleDetails", hitArgs, same);
    for (let i = 0; i < warmUp; i++) await hitOnce(), await noopOnce();
    const hitCpu: number[] = [];
    const noopCpu: number[] = [];
    const calls = Array.from({ length: hitsPerRound }, (_, i) => i);
    for (let r = 0; r < rounds; r++) {
      const hits = () => cpuPerCall(server, calls, hitOnce);
      const noops = () => cpuPerCall(floor, calls, noopOnce);
      const [hitMs, noopMs] = await alternately(r, hits, noops);
      hitCpu.push(hitMs);
      noopCpu.push(noopMs);
    }

    // Every measured fetch counts (the mean), warm-up after the first ten included: a steady-state median
    // would flatter us against a peer figure whose method is not known in that detail.
    const cpuMs = fetchCpu.reduce((a, b) => a + b, 0) / fetchCpu.length;
    const how = `${rounds} rounds of ${perRound} sequential uncached 1-PMID calls after ${warmUp} to warm up; ` +
      "server process over stdio (-P=stdio, --mock), mock upstream in its own process, pacing off";
    const peer = `the peer's ${PEER_CPU_MS} ms per call (cyanheads/pubmed-mcp-server 2.7.4, Node 24) comes from ` +
      "issue 24's outside run over stdio, not from this benchmark";
    const perRoundText = (values: number[]) => values.map((c) => c.toFixed(2)).join(", ");
    const searchRatio = median(searchCpu) / median(fetchCpu);
    const memoRatio = median(hitCpu) / median(noopCpu);
    return [
      {
        name: "pubmed over stdio: server CPU per uncached fetchArticleDetails (1 PMID)",
        value: cpuMs,
        unit: "ms",
        target: `≤ ${TARGET_CPU_MS.toFixed(2)} ms (0.6× the peer's ${PEER_CPU_MS} ms)`,
        pass: cpuMs <= TARGET_CPU_MS,
        command,
        notes: `mean per call over all ${rounds * perRound} calls (/proc/<pid>/stat, 10 ms ticks); per round: ${
          perRoundText(fetchCpu)
        } ms, median ${median(fetchCpu).toFixed(2)}; ${(cpuMs / PEER_CPU_MS).toFixed(2)}× the peer; ${how}; ${peer}`,
      },
      {
        name: "pubmed over stdio: search (ESearch) ÷ 1-PMID fetch, server CPU per call",
        value: searchRatio,
        unit: "×",
        target: `≤ ${SEARCH_RATIO_TARGET.toFixed(1)}×`,
        pass: searchRatio <= SEARCH_RATIO_TARGET,
        command,
        notes: `median of ${rounds} alternating rounds of ${perRound} calls each: searchPubMedArticles ` +
          `{queryTerm} with a term never asked before (one ESearch, no summaries) ${
            median(searchCpu).toFixed(2)
          } ms vs fetchArticleDetails of a PMID never asked before (one EFetch) ${
            median(fetchCpu).toFixed(2)
          } ms; per round: search ${perRoundText(searchCpu)}, fetch ${perRoundText(fetchCpu)} ms; the same ` +
          "server process over stdio (/proc/<pid>/stat), mock upstream in its own process, pacing off; " +
          `${BEFORE_36}: 0.48×, 0.64× (after: 0.71×, 0.73×)`,
      },
      {
        name: "pubmed over stdio: memo hit ÷ no-op tool with the same answer, server CPU per call",
        value: memoRatio,
        unit: "×",
        target: `≤ ${MEMO_RATIO_TARGET.toFixed(1)}×`,
        pass: memoRatio <= MEMO_RATIO_TARGET,
        command,
        notes:
          `median of ${rounds} alternating rounds of ${hitsPerRound} calls each (${
            rounds * hitsPerRound
          } per side): fetchArticleDetails of one PMID already answered (a result-memo hit; default settings: ` +
          `info log on stderr, session log file) ${median(hitCpu).toFixed(3)} ms vs ` +
          `bench/fixtures/noop_tool_server.ts (a bare SDK server answering the captured ${answerChars}-character ` +
          `answer) ${median(noopCpu).toFixed(3)} ms; per round: hit ${perRoundText(hitCpu)}, no-op ${
            perRoundText(noopCpu)
          } ms (/proc/<pid>/stat of each server process); ${BEFORE_36}: 1.62×, 1.92× (after: 1.50×, 1.58×)`,
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
    await noop?.close();
    await server.close();
    await mock.close();
    await Deno.remove(answerFile).catch(() => {});
  }
}
