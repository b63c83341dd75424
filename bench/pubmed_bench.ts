/**
 * PubMed parsing and call overhead. Parse throughput on the recorded 604-citation MEDLINE baseline file
 * (3.9 MB) and on a 200-article EFetch body assembled from recorded records; then the cost of one
 * fetchArticleDetails call over MCP against the mock upstream with pacing off (what the server adds on
 * top of NCBI's own latency), cold and from the cache, and of one 200-PMID call (POST). Last, CPU per call
 * with the mock in its own process, so that this process's CPU (process.cpuUsage) is the server's and the
 * client's alone: an uncached call (a PMID never asked before) against a repeat of the same call, which the
 * result memo answers (src/core/result_memo.ts: parse once).
 */
import process from "node:process";
import { parseEFetchPubMed } from "../src/sources/ncbi/pubmed/parse_efetch.ts";
import { splitRawRecords } from "../src/sources/ncbi/pubmed/raw.ts";
import { median, openBenchSession, openProcessBenchSession } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const BASELINE = new URL("../fixtures/ncbi/pubmed/pubmedparser__medline16n0902.xml", import.meta.url);

/** This process's CPU (user + system) so far, in ms. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Median CPU milliseconds of `fn` over `rounds` runs, after one warm-up run: CPU, not wall time, so a busy
 * machine does not fail the parse targets (all of it is synchronous work on this thread, plus GC).
 */
function time(rounds: number, fn: () => unknown): number {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = cpuNow();
    fn();
    samples.push(cpuNow() - started);
  }
  return median(samples);
}

function parseRows(options: BenchOptions, baseline: string, command: string): BenchRow[] {
  const rounds = options.quick ? 3 : 10;
  const mb = new TextEncoder().encode(baseline).length / 1e6;
  let citations = 0;
  const baselineMs = time(rounds, () => (citations = parseEFetchPubMed(baseline, "bench").length));
  const records = [...splitRawRecords(baseline).values()].slice(0, 200);
  const efetch = `<?xml version="1.0" ?>\n<PubmedArticleSet>\n${
    records.map((r) => `<PubmedArticle>${r}</PubmedArticle>`).join("\n")
  }\n</PubmedArticleSet>\n`;
  const efetchMb = new TextEncoder().encode(efetch).length / 1e6;
  const efetchMs = time(rounds, () => parseEFetchPubMed(efetch, "bench"));
  return [
    {
      name: `pubmed parse (CPU): MEDLINE baseline, ${citations} citations (${mb.toFixed(1)} MB)`,
      value: mb / (baselineMs / 1000),
      unit: "MB/s",
      target: "≥ 2 MB/s",
      pass: mb / (baselineMs / 1000) >= 2,
      command,
      notes: `CPU, median of ${rounds}: ${baselineMs.toFixed(0)} ms, ${
        (citations / (baselineMs / 1000)).toFixed(0)
      } citations/s`,
    },
    {
      name: `pubmed parse (CPU): 200-article EFetch body (${efetchMb.toFixed(1)} MB)`,
      value: efetchMs,
      unit: "ms",
      target: "≤ 500 ms",
      pass: efetchMs <= 500,
      command,
      notes: `CPU, median of ${rounds}; ${(200 / (efetchMs / 1000)).toFixed(0)} articles/s`,
    },
  ];
}

async function overheadRows(options: BenchOptions, pmids: string[], command: string): Promise<BenchRow[]> {
  const session = await openBenchSession(
    "pubmed-bench",
    { SCIENCE_MCP_TOOLSETS: "pubmed", NCBI_REQUEST_DELAY_MS: "0" },
    { rates: false },
  );
  const call = async (ids: string[]) => {
    const started = performance.now();
    await session.call("fetchArticleDetails", { pmids: ids });
    return performance.now() - started;
  };
  try {
    const n = options.quick ? 15 : 50;
    await call([pmids[n]]);
    const cold: number[] = [];
    for (const pmid of pmids.slice(0, n)) cold.push(await call([pmid]));
    const warm: number[] = [];
    for (const pmid of pmids.slice(0, n)) warm.push(await call([pmid]));
    const batch = await call(pmids.slice(n + 1, n + 201));
    return [
      {
        name: `pubmed call overhead: fetchArticleDetails, 1 PMID, cold (${n} calls)`,
        value: median(cold),
        unit: "ms",
        target: "≤ 50 ms",
        pass: median(cold) <= 50,
        command,
        notes: "median; MCP in memory + pipeline + local HTTP mock + parse, pacing off",
      },
      {
        name: `pubmed call overhead: fetchArticleDetails, 1 PMID, cached (${n} calls)`,
        value: median(warm),
        unit: "ms",
        command,
        notes: "median; answered from the response cache",
      },
      {
        name: "pubmed call: fetchArticleDetails, 200 PMIDs (POST), cold",
        value: batch,
        unit: "ms",
        target: "≤ 1000 ms",
        pass: batch <= 1000,
        command,
      },
    ];
  } finally {
    await session.close();
  }
}

/** CPU per uncached call and per repeated (memo-answered) call, in alternating rounds; ratios within this run. */
async function cpuRows(options: BenchOptions, pmids: string[], command: string): Promise<BenchRow[]> {
  const session = await openProcessBenchSession("pubmed-cpu-bench", {
    SCIENCE_MCP_TOOLSETS: "pubmed",
    NCBI_REQUEST_DELAY_MS: "0",
  });
  const rounds = options.quick ? 3 : 5;
  const perRound = options.quick ? 10 : 20;
  // PMIDs used by no other row of this module, so every first call is a miss in every cache.
  const fresh = pmids.slice(-rounds * perRound - 1);
  const cpuPerCall = async (ids: string[]) => {
    const before = session.cpuMs();
    for (const pmid of ids) await session.call("fetchArticleDetails", { pmids: [pmid] });
    return (session.cpuMs() - before) / ids.length;
  };
  try {
    await cpuPerCall(fresh.slice(-1)); // warm-up: JIT, connections
    const miss: number[] = [];
    const hit: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const ids = fresh.slice(r * perRound, (r + 1) * perRound);
      miss.push(await cpuPerCall(ids));
      hit.push(await cpuPerCall(ids));
    }
    const ratio = median(hit) / median(miss);
    const how =
      `${rounds} rounds of ${perRound} sequential 1-PMID calls, median per call; mock upstream in its own process`;
    return [
      {
        name: "pubmed CPU: fetchArticleDetails, 1 PMID, uncached",
        value: median(miss),
        unit: "ms",
        command,
        notes:
          `${how}; server only: raw JSON-RPC in memory, each answer serialized once as a transport would, no client library. Issue 24's figures (12.9 ms per call, ` +
          "0.88× cyanheads/pubmed-mcp-server 2.7.4) come from an outside run on Node 24, not from this benchmark",
      },
      {
        name: "pubmed CPU: fetchArticleDetails, 1 PMID, repeated (result memo hit)",
        value: median(hit),
        unit: "ms",
        command,
        notes: how,
      },
      {
        name: "pubmed CPU: memo hit / uncached call",
        value: ratio * 100,
        unit: "%",
        target: "≤ 20 %",
        pass: ratio <= 0.2,
        command,
        notes: `${median(hit).toFixed(2)} ms vs ${median(miss).toFixed(2)} ms per call, same run`,
      },
    ];
  } finally {
    await session.close();
  }
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} pubmed`;
  const baseline = await Deno.readTextFile(BASELINE);
  const pmids = [...splitRawRecords(baseline).keys()];
  return [
    ...parseRows(options, baseline, command),
    ...await overheadRows(options, pmids, command),
    ...await cpuRows(options, pmids, command),
  ];
}
