/**
 * One process's charts (chart_bench.ts): three different year-series charts drawn to PNG one after another in a
 * fresh process, as the chart tools draw them (rasterize.ts loads resvg and the font on the first). Prints one JSON
 * line: the CPU of each chart (getrusage: every thread, wasm compilation included), in ms.
 *
 * Usage: deno run -A bench/chart_probe.ts
 */
import process from "node:process";
import { svgToPng } from "../src/render/chart/rasterize.ts";
import { yearSeriesSvg } from "../src/render/chart/year_series.ts";

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const charts: number[] = [];
for (let i = 0; i < 3; i++) {
  const points = Array.from({ length: 12 }, (_, k) => ({ year: 2010 + k, count: (k * 37 + i * 11) % 90 + 5 }));
  const svg = yearSeriesSvg({ title: `Papers per year ${i}`, yTitle: "papers", kind: i % 2 ? "bar" : "line", points });
  const before = cpuMs();
  const png = await svgToPng(svg);
  charts.push(cpuMs() - before);
  if (png.byteLength < 1000) throw new Error("no PNG drawn");
}
console.log(JSON.stringify({ charts }));
