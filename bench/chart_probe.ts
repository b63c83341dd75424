/**
 * One process's charts (chart_bench.ts), drawn one after another in a fresh process, each a different query's (no
 * store or cache hit). Prints one JSON line: the CPU of each chart in ms, from getrusage (every thread of the
 * process, so V8's background compilers are in it), counted from the call until the process is quiet again: work a
 * chart leaves to background threads is charged to that chart, not to the next one.
 *
 * - `--tool` (the #36 row): generate_publication_trend called over MCP (raw JSON-RPC, in-memory transport) on a
 *   server in this process, against the mock upstream in its own process (20 PubMed counts per chart, pacing off),
 *   so the CPU is the server's. Before the first chart the server has answered a PubMed search and a papers tool,
 *   so the first chart's extra is the chart's own, not the first upstream call's or the toolset's import.
 * - default: the drawing alone, on the tool's path from the counts on (yearSeriesSvg, then drawChart: PNG, content
 *   id, store, base64 block).
 *
 * Usage: deno run -A bench/chart_probe.ts [--tool] [charts, default 8]
 */
import process from "node:process";
import { yearSeriesSvg } from "../src/render/chart/year_series.ts";
import { drawChart } from "../src/tools/chart_image.ts";
import { openProcessBenchSession } from "./support.ts";

const TOOL = Deno.args.includes("--tool");
const CHARTS = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 8);
/** Quiet: less than this much CPU in one QUIET_WINDOW_MS after the call (an idle Deno process uses ~0). */
const QUIET_CPU_MS = 1;
const QUIET_WINDOW_MS = 100;
const MAX_SETTLE_MS = 3000;
const QUERIES = ["CRISPR", "malaria vaccine", "gut microbiome", "tau protein", "mRNA vaccine", "zebrafish", "p53"];

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a window passes with (almost) no CPU, then returns the CPU reading at the window's start. */
async function settled(): Promise<number> {
  const deadline = performance.now() + MAX_SETTLE_MS;
  let before = cpuMs();
  while (performance.now() < deadline) {
    await sleep(QUIET_WINDOW_MS);
    const now = cpuMs();
    if (now - before < QUIET_CPU_MS) return before;
    before = now;
  }
  return before;
}

const query = (i: number) => QUERIES[i % QUERIES.length] + (i >= QUERIES.length ? ` ${i}` : "");
const thisYear = new Date().getUTCFullYear();

/** Draws chart `i` on the tool's path from the counts on. */
function drawing(): (i: number) => Promise<void> {
  const stores = new Map<unknown, unknown>();
  const ctx = {
    shared<T>(key: unknown, make: () => T): T {
      if (!stores.has(key)) stores.set(key, make());
      return stores.get(key) as T;
    },
  };
  return async (i) => {
    // A realistic shape: growth with noise, the last (current) year counted so far.
    const points = Array.from({ length: 20 }, (_, k) => ({
      year: thisYear - 19 + k,
      count: Math.round((200 + 40 * i) * 1.15 ** k * (1 + 0.1 * Math.sin(k * (i + 2))) * (k === 19 ? 0.4 : 1)),
    }));
    const svg = yearSeriesSvg({
      title: `PubMed articles per year: ${query(i)}`,
      yTitle: "Articles (count)",
      kind: "line",
      points,
      partialYear: thisYear,
    });
    const { image, block } = await drawChart(ctx, "papers", svg);
    if (image.bytes < 1000 || !block.data) throw new Error("no PNG drawn");
  };
}

const session = TOOL
  ? await openProcessBenchSession("chart-bench", { SCIENCE_MCP_TOOLSETS: "papers,pubmed", NCBI_REQUEST_DELAY_MS: "0" })
  : undefined;
let chart = drawing();
if (session) {
  await session.call("searchPubMedArticles", { queryTerm: "warm-up" });
  await session.call("list_categories", { source: "arxiv" });
  chart = async (i) => {
    const result = await session.call("generate_publication_trend", { query: query(i), fromYear: thisYear - 19 });
    if ((result.image as { bytes: number }).bytes < 1000) throw new Error("no PNG drawn");
  };
}

await settled();
const charts: number[] = [];
for (let i = 0; i < CHARTS; i++) {
  const before = cpuMs();
  await chart(i);
  charts.push((await settled()) - before);
}
await session?.close();
console.log(JSON.stringify({ charts }));
