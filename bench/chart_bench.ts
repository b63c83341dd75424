/**
 * The first chart's fixed cost (#36): CPU of the first chart a process draws against a later one, each probe in a
 * fresh process (bench/chart_probe.ts), median of 5. The first pays for loading resvg's wasm and the font.
 * Target: first ÷ later ≤ 2×.
 */
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";
import { REPO } from "./pdf_server.ts";

const COMMAND = "deno task bench chart";

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
  for (let i = 0; i < 5; i++) {
    const [a, ...rest] = await probe();
    first.push(a);
    later.push(median(rest));
  }
  const ratio = median(first) / median(later);
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
      notes: `median of 5 fresh processes (bench/chart_probe.ts); first ${first.map(Math.round).join("/")} ms, later ${
        later.map(Math.round).join("/")
      } ms`,
    },
  ];
}
