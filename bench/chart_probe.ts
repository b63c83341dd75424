/**
 * One process's charts (chart_bench.ts): publication-trend charts drawn one after another in a fresh process, each
 * on generate_publication_trend's path from the counts on (yearSeriesSvg with its title, axis and partial year,
 * then drawChart: PNG, content id, store, base64 block). Every chart is a different query's (no store hit). Prints one JSON line: the CPU
 * of each chart in ms, from getrusage (every thread of the process, so V8's background wasm compile is in it),
 * counted from the call until the process is quiet again: work a chart leaves to background threads is charged to
 * that chart, not to the next one.
 *
 * Usage: deno run -A bench/chart_probe.ts [charts, default 6]
 */
import process from "node:process";
import { yearSeriesSvg } from "../src/render/chart/year_series.ts";
import { drawChart } from "../src/tools/chart_image.ts";

const CHARTS = Number(Deno.args[0] ?? 6);
/** Quiet: less than this much CPU in one QUIET_WINDOW_MS after the call (an idle Deno process uses ~0). */
const QUIET_CPU_MS = 1;
const QUIET_WINDOW_MS = 100;
const MAX_SETTLE_MS = 3000;

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

const stores = new Map<unknown, unknown>();
const ctx = {
  shared<T>(key: unknown, make: () => T): T {
    if (!stores.has(key)) stores.set(key, make());
    return stores.get(key) as T;
  },
};
const QUERIES = ["CRISPR", "malaria vaccine", "gut microbiome", "tau protein", "mRNA vaccine", "zebrafish", "p53"];
const thisYear = new Date().getUTCFullYear();

await settled();
const charts: number[] = [];
for (let i = 0; i < CHARTS; i++) {
  const query = QUERIES[i % QUERIES.length] + (i >= QUERIES.length ? ` ${i}` : "");
  // A realistic shape: growth with noise, the last (current) year counted so far.
  const counts = Array.from({ length: 20 }, (_, k) => ({
    year: thisYear - 19 + k,
    count: Math.round((200 + 40 * i) * 1.15 ** k * (1 + 0.1 * Math.sin(k * (i + 2)))) * (k === 19 ? 0.4 : 1),
  })).map((p) => ({ ...p, count: Math.round(p.count) }));
  const before = cpuMs();
  const svg = yearSeriesSvg({
    title: `PubMed articles per year: ${query}`,
    yTitle: "Articles (count)",
    kind: "line",
    points: counts,
    partialYear: thisYear,
  });
  const { image, block } = await drawChart(ctx, "papers", svg);
  charts.push((await settled()) - before);
  if (image.bytes < 1000 || !block.data) throw new Error("no PNG drawn");
}
console.log(JSON.stringify({ charts }));
