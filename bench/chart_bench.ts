/**
 * The first chart's fixed cost (#36): CPU of the first chart a fresh process draws against a later one, on
 * generate_publication_trend's path (bench/chart_probe.ts: six different line charts per process, each charged with
 * the CPU it causes until the process is quiet again, V8's background compile included). "A later chart" is the
 * median of charts 2–6 of a process; 7 fresh processes, the row is the median over them. Target: first ÷ later ≤ 2×.
 */
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";
import { REPO } from "./pdf_server.ts";

const COMMAND = "deno task bench chart";
const PROCESSES = 7;

async function probe(): Promise<number[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/chart_probe.ts"],
    cwd: REPO,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`bench/chart_probe.ts failed (status ${out.code})`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]).charts;
}

export async function run(_options: BenchOptions): Promise<BenchRow[]> {
  const first: number[] = [];
  const later: number[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const [a, ...rest] = await probe();
    first.push(a);
    later.push(median(rest));
  }
  const ratio = median(first) / median(later);
  const ms = (values: number[]) => values.map(Math.round).join("/");
  return [
    { name: "chart: first chart of a process, CPU", value: Math.round(median(first)), unit: "ms", command: COMMAND },
    { name: "chart: a later chart, CPU", value: Math.round(median(later)), unit: "ms", command: COMMAND },
    {
      name: "chart: first chart ÷ a later chart, CPU",
      value: Number(ratio.toFixed(2)),
      unit: "×",
      target: "≤ 2",
      pass: ratio <= 2,
      command: COMMAND,
      notes: `median of ${PROCESSES} fresh processes (bench/chart_probe.ts: generate_publication_trend's SVG and ` +
        `drawChart, 6 different line charts each, CPU of all threads until quiet); first ${ms(first)} ms, later ` +
        `(median of charts 2–6) ${ms(later)} ms`,
    },
  ];
}
