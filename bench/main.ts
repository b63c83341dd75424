/**
 * Runs the benchmarks: every `bench/*_bench.ts` module that exports `run(options)`, one after the other
 * (they measure timing, so they must not overlap), prints one table and writes docs/benchmarks.md with
 * the machine it ran on.
 *
 * Usage: `deno run -A bench/main.ts [--quick] [--write | --no-write] [name ...]`
 * - `--quick`: the CI variant (smaller bursts).
 * - `name`: only modules whose file name contains it (`pacing` runs pacing_bench.ts).
 * - docs/benchmarks.md is written after a full run (no --quick, no filter) unless `--no-write`;
 *   `--write` writes it for any run. The generated table is replaced; the hand-written sections after it are kept.
 * Exits 1 when any row misses its target, so CI can run `deno task bench --quick`.
 */
import type { BenchModule, BenchOptions, BenchRow } from "./types.ts";

interface Args {
  options: BenchOptions;
  filters: string[];
  write?: boolean;
}

interface Section {
  module: string;
  rows: BenchRow[];
  seconds: number;
  /** When the module ran and the 1-minute load average at its start and end: every row carries it. */
  measured: string;
}

function parseArgs(args: string[]): Args {
  const parsed: Args = { options: { quick: false }, filters: [] };
  for (const arg of args) {
    if (arg === "--quick") parsed.options.quick = true;
    else if (arg === "--write") parsed.write = true;
    else if (arg === "--no-write") parsed.write = false;
    else if (arg.startsWith("-")) throw new Error(`unknown flag ${arg}; use --quick, --write, --no-write, [name ...]`);
    else parsed.filters.push(arg);
  }
  return parsed;
}

async function discover(filters: string[]): Promise<string[]> {
  const all: string[] = [];
  for await (const entry of Deno.readDir(new URL(".", import.meta.url))) {
    if (entry.isFile && entry.name.endsWith("_bench.ts")) all.push(entry.name);
  }
  return selectModules(all, filters);
}

/**
 * The bench modules a run takes: all, or those a filter names. A filter that is a module's whole name
 * (`pdf_bench`, `pdf_bench.ts`) takes that module alone; any other filter is a part of names (`pdf`).
 */
export function selectModules(all: string[], filters: string[]): string[] {
  const matches = (name: string, filter: string) => {
    const whole = (n: string) => n === filter || n === `${filter}.ts`;
    return all.some(whole) ? whole(name) : name.includes(filter);
  };
  return all.filter((name) => !filters.length || filters.some((f) => matches(name, f))).sort();
}

/** The 1-minute load average (Linux /proc/loadavg), or "?" where there is none. */
async function loadAverage(): Promise<string> {
  try {
    return (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
  } catch {
    return "?";
  }
}

async function runModule(file: string, options: BenchOptions): Promise<Section> {
  const started = performance.now();
  const date = new Date().toISOString().slice(0, 16).replace("T", " ") + "Z";
  const loadBefore = await loadAverage();
  const module = file.replace(/_bench\.ts$/, "");
  let rows: BenchRow[];
  try {
    const mod = await import(new URL(file, import.meta.url).href) as Partial<BenchModule>;
    if (typeof mod.run !== "function") throw new Error(`${file} does not export run(options)`);
    rows = await mod.run(options);
  } catch (error) {
    rows = [{ name: `${module}: crashed`, value: NaN, unit: "", pass: false, notes: String(error) }];
  }
  const measured = `${date}, load ${loadBefore}→${await loadAverage()}`;
  return { module, rows, seconds: (performance.now() - started) / 1000, measured };
}

function formatValue(row: BenchRow): string {
  if (!Number.isFinite(row.value)) return "—";
  const abs = Math.abs(row.value);
  const digits = Number.isInteger(row.value) ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return `${row.value.toFixed(digits)} ${row.unit}`.trim();
}

function verdict(row: BenchRow): string {
  return row.pass === undefined ? "" : row.pass ? "pass" : "FAIL";
}

/** A Markdown table; also readable as plain text on a terminal. */
function table(sections: Section[]): string {
  const header = ["Benchmark", "Value", "Target", "Result", "Measured (UTC, 1-min load)", "Notes"];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const section of sections) {
    for (const row of section.rows) {
      const cells = [row.name, formatValue(row), row.target ?? "", verdict(row), section.measured, row.notes ?? ""];
      lines.push(`| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`);
    }
  }
  return lines.join("\n");
}

async function machine(): Promise<string[]> {
  const memory = (() => {
    try {
      return `${(Deno.systemMemoryInfo().total / 1024 ** 3).toFixed(1)} GiB`;
    } catch {
      return "unknown";
    }
  })();
  let cpu = "unknown CPU";
  try {
    cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(/model name\s*:\s*(.+)/)?.[1]?.trim() ?? cpu;
  } catch { /* not Linux, or no read permission */ }
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${navigator.hardwareConcurrency} logical cores (${cpu}), ${memory} memory, ${Deno.build.os}/${Deno.build.arch}`,
    `- Runtime: Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, TypeScript ${Deno.version.typescript}`,
  ];
}

async function writeReport(sections: Section[], args: Args): Promise<URL> {
  const commands = [...new Set(sections.flatMap((s) => s.rows.map((r) => r.command).filter(Boolean)))];
  const mode = args.options.quick ? "quick (CI variant)" : "full";
  const filter = args.filters.length ? `, only: ${args.filters.join(", ")}` : "";
  const text = [
    "# Benchmarks",
    "",
    "Generated by `deno task bench` (bench/main.ts) in one run; see bench/README.md for what each row measures.",
    "Every row carries when its module ran and the machine's 1-minute load average at the module's start and end",
    "(the machine is shared: CPU figures and ratios measured side by side in the same run are the ones to compare).",
    "",
    ...await machine(),
    `- Mode: ${mode}${filter}`,
    "",
    table(sections),
    "",
    "Time per module: " + sections.map((s) => `${s.module} ${s.seconds.toFixed(1)} s`).join(", "),
    "",
    "Reproduce a group alone:",
    "",
    ...commands.map((c) => `- \`${c}\``),
    "",
  ].join("\n");
  const out = new URL("../docs/benchmarks.md", import.meta.url);
  await Deno.writeTextFile(out, text + await handWritten(out));
  return out;
}

/**
 * The sections of docs/benchmarks.md after the generated table (profiles, before → after, written by hand from
 * probes): a run replaces the table and keeps them. They start at the file's first second-level heading.
 */
async function handWritten(file: URL): Promise<string> {
  const old = await Deno.readTextFile(file).catch(() => "");
  const at = old.indexOf("\n## ");
  return at < 0 ? "" : `\n${old.slice(at + 1)}`;
}

async function main(): Promise<number> {
  const args = parseArgs(Deno.args);
  const files = await discover(args.filters);
  if (files.length === 0) {
    console.error(`no bench/*_bench.ts module matches ${args.filters.join(", ")}`);
    return 1;
  }
  const sections: Section[] = [];
  for (const file of files) {
    console.error(`running ${file}${args.options.quick ? " (quick)" : ""} ...`);
    const section = await runModule(file, args.options);
    console.error(`  ${section.rows.length} rows in ${section.seconds.toFixed(1)} s`);
    sections.push(section);
  }
  console.log(table(sections));
  const write = args.write ?? (!args.options.quick && args.filters.length === 0);
  if (write) console.error(`wrote ${(await writeReport(sections, args)).pathname}`);
  const failed = sections.flatMap((s) => s.rows).filter((r) => r.pass === false);
  if (failed.length) {
    console.error(`${failed.length} row(s) missed their target: ${failed.map((r) => r.name).join("; ")}`);
  }
  return failed.length ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main());
