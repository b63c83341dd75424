/**
 * The fault matrix (scripts/fault_matrix.ts) as benchmark rows: every network tool × every upstream fault
 * (quick: the first network tool of each toolset, smaller bodies). Each case must end in a specific error
 * envelope or the un-faulted result after paced retries; the full table prints with
 * `deno run -A scripts/fault_matrix.ts`.
 */
import { TOOLSETS } from "../src/catalog.ts";
import { QUICK, runFaultMatrix } from "../scripts/fault_matrix.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const tools = options.quick
    ? TOOLSETS.flatMap((s) => s.tools.filter((t) => t.annotations.openWorldHint).slice(0, 1)).map((t) => t.name)
    : undefined;
  const command = options.quick
    ? "deno run -A scripts/fault_matrix.ts --quick --tool …"
    : "deno run -A scripts/fault_matrix.ts";
  const report = await runFaultMatrix(options.quick ? { ...QUICK, tools } : {});
  const toolCount = new Set(report.cases.map((c) => c.tool)).size;
  const failed = report.cases.filter((c) => c.grade === "fail");
  const warned = report.cases.filter((c) => c.grade === "warn");
  const scope = `${toolCount} tools × ${report.faults.length} faults`;
  return [
    {
      name: `fault matrix: cases (${scope})`,
      value: report.cases.length,
      unit: "cases",
      target: options.quick ? undefined : "≥ 200",
      pass: options.quick ? undefined : report.cases.length >= 200,
      command,
      notes: `${report.seconds.toFixed(0)} s, simulated clock`,
    },
    {
      name: "fault matrix: empty/garbage successes, INTERNAL, protocol errors, stalls",
      value: failed.length,
      unit: "cases",
      target: "= 0",
      pass: failed.length === 0,
      command,
      notes: failed.map((c) => `${c.tool} × ${c.fault} (${c.cell})`).join("; ").slice(0, 300),
    },
    {
      name: "fault matrix: unhandled promise rejections",
      value: report.unhandledRejections.length,
      unit: "",
      target: "= 0",
      pass: report.unhandledRejections.length === 0,
      command,
    },
    {
      name: "fault matrix: questionable outcomes (reviewed by hand)",
      value: warned.length,
      unit: "cases",
      command,
      notes: warned.map((c) => `${c.tool} × ${c.fault} (${c.cell})`).join("; ").slice(0, 300),
    },
  ];
}
