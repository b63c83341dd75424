/**
 * The first chart's fixed cost (#36): CPU of the first chart a fresh server draws against a later one
 * (bench/chart_probe.ts: 8 charts per process, each charged with the CPU it causes until the process is quiet
 * again, V8's background compilers included). The row: generate_publication_trend over MCP, the server's CPU, mock
 * upstream in its own process; "a later chart" is the median of charts 2–8 of a process (different queries, same
 * kind), the row the median over 7 fresh processes. Beside it, informative: the drawing alone (SVG, PNG, block).
 * Target: first ÷ later ≤ 2×.
 */
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";
import { REPO } from "./pdf_server.ts";

const COMMAND = "deno task bench chart";
const PROCESSES = 7;

async function probe(tool: boolean): Promise<number[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/chart_probe.ts", ...(tool ? ["--tool"] : [])],
    cwd: REPO,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`bench/chart_probe.ts failed (status ${out.code})`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]).charts;
}

interface Series {
  first: number[];
  later: number[];
}

export async function run(_options: BenchOptions): Promise<BenchRow[]> {
  const tool: Series = { first: [], later: [] };
  const drawing: Series = { first: [], later: [] };
  for (let i = 0; i < PROCESSES; i++) {
    // Interleaved, so both see the same machine load.
    for (const [series, isTool] of [[tool, true], [drawing, false]] as const) {
      const [first, ...rest] = await probe(isTool);
      series.first.push(first);
      series.later.push(median(rest));
    }
  }
  const ms = (values: number[]) => values.map(Math.round).join("/");
  const ratio = (s: Series) => median(s.first) / median(s.later);
  const notes = (s: Series) =>
    `median of ${PROCESSES} fresh processes; first ${ms(s.first)} ms, later (median of charts 2–8) ${ms(s.later)} ms`;
  return [
    {
      name: "chart: first generate_publication_trend of a server, CPU",
      value: Math.round(median(tool.first)),
      unit: "ms",
      command: COMMAND,
    },
    {
      name: "chart: a later one (another query), CPU",
      value: Math.round(median(tool.later)),
      unit: "ms",
      command: COMMAND,
    },
    {
      name: "chart: first chart ÷ a later chart, CPU",
      value: Number(ratio(tool).toFixed(2)),
      unit: "×",
      target: "≤ 2",
      pass: ratio(tool) <= 2,
      command: COMMAND,
      notes: `generate_publication_trend over MCP (20 PubMed counts each, mock upstream in its own process, pacing ` +
        `off), the server's CPU of all threads until quiet, after a PubMed search and a papers tool; ${notes(tool)}`,
    },
    {
      name: "chart: drawing alone, first ÷ later, CPU",
      value: Number(ratio(drawing).toFixed(2)),
      unit: "×",
      command: COMMAND,
      notes: `yearSeriesSvg + drawChart (PNG, id, store, base64) in a fresh process, no server; ${notes(drawing)}`,
    },
  ];
}
