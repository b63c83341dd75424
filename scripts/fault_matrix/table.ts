/** The matrix as text: one row per tool, one column per fault, then the problems in full. */
import type { MatrixReport } from "./run.ts";

const SHORT: Record<string, string> = {
  RATE_LIMITED: "RATE",
  UPSTREAM_ERROR: "UPSTR",
  PAYLOAD_TOO_LARGE: "LARGE",
  NOT_AVAILABLE: "N/A",
  ENTITY_NOT_FOUND: "NOTFND",
  UNRESOLVED_ENTITY: "UNRES",
  INVALID_INPUT: "INPUT",
  AMBIGUOUS_QUERY: "AMBIG",
};

export function formatMatrix(report: MatrixReport): string {
  const ids = report.faults.map((f) => f.id);
  const tools = [...new Set(report.cases.map((c) => c.tool))];
  const byKey = new Map(report.cases.map((c) => [`${c.tool}\n${c.fault}`, c]));
  const mark = { pass: "", warn: "?", fail: "!" } as const;
  const rows = tools.map((tool) => [
    tool,
    ...ids.map((id) => {
      const c = byKey.get(`${tool}\n${id}`);
      return c ? `${SHORT[c.cell] ?? c.cell}${mark[c.grade]}` : "";
    }),
  ]);
  const header = ["tool \\ fault", ...ids];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(" | ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("-|-"), ...rows.map(line)].join("\n");
}

export function formatSummary(report: MatrixReport): string {
  const count = (g: string) => report.cases.filter((c) => c.grade === g).length;
  const lines = [
    `${report.cases.length} cases (${new Set(report.cases.map((c) => c.tool)).size} tools × ${report.faults.length} ` +
    `faults) in ${report.seconds.toFixed(1)} s: ${count("pass")} pass, ${count("warn")} warn (?), ` +
    `${count("fail")} fail (!); unhandled rejections: ${report.unhandledRejections.length}`,
    `settings: simulated clock, ${report.settings.concurrency} at a time, ` +
    `UPSTREAM_TIMEOUT_MS=${report.settings.env.UPSTREAM_TIMEOUT_MS}` +
    (report.settings.env.UPSTREAM_MAX_BYTES ? `, UPSTREAM_MAX_BYTES=${report.settings.env.UPSTREAM_MAX_BYTES}` : ""),
    "legend: cell = error code (RATE, UPSTR, LARGE, N/A, NOTFND …) or ok; ok~ recovered with a different result; " +
    "ok= unaffected; EMPTY empty success; GARBAGE success built from a faulted body",
    "faults: " + report.faults.map((f) => `${f.id} = ${f.label}`).join("; "),
  ];
  const broken = report.baselines.filter((b) => b.outcome.isError || b.prefixes.length === 0);
  for (const b of broken) {
    const why = b.outcome.isError
      ? `baseline (first example, no fault) failed: ${JSON.stringify(b.outcome.structured ?? b.outcome.thrown)}`
      : "none of its examples made an upstream request, so it was not faulted";
    lines.push(`note: ${b.tool}: ${why}`);
  }
  const later = report.baselines.filter((b) => b.example > 0 && b.prefixes.length > 0);
  for (const b of later) {
    lines.push(`note: ${b.tool}: example ${b.example + 1} used (the first that reaches an upstream)`);
  }
  for (const c of report.cases.filter((c) => c.grade !== "pass")) {
    lines.push(`${c.grade === "fail" ? "FAIL" : "warn"} ${c.tool} × ${c.fault}: ${c.problem}`);
  }
  for (const r of report.unhandledRejections) {
    lines.push(`UNHANDLED REJECTION: ${r.split("\n").slice(0, 3).join(" ⏎ ")}`);
  }
  return lines.join("\n");
}
