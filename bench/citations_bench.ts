/**
 * The citation engine's cost (issue #39): what citeproc-js and the bundled CSL styles add on disk, that the
 * server's start-up module graph holds none of it (the engine loads on the first formatted export), and
 * in fresh processes (one per sample, bench/fixtures/citation_engine_probe.ts) the first formatted
 * citation against a warm one, the other seven styles' first use, the memory they add, and how long the
 * server's thread stalls while the largest style's engine is built on the citation worker against inline.
 */
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const COMMAND = "deno task bench citations";
const ROOT = new URL("../", import.meta.url);
const MIB = 1024 * 1024;

interface Probe {
  rssStart: number;
  writersMs: number;
  /** Each formatted style's first call, in EXPORT_STYLES order, and the process's RSS after it. */
  styles: Record<string, { ms: number; rss: number }>;
  warmMs: number;
}

interface Stall {
  longestStallMs: number;
  renderMs: number;
  inline: boolean;
}

async function probe(): Promise<Probe>;
async function probe(mode: "worker" | "inline"): Promise<Stall>;
async function probe(mode?: "worker" | "inline"): Promise<Probe | Stall> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--allow-read", "bench/fixtures/citation_engine_probe.ts", ...(mode ? ["stall", mode] : [])],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
}

/** Bytes of the files the engine loads: citeproc's one CommonJS file and the style and locale modules. */
async function engineBytes(): Promise<{ citeproc: number; styles: number }> {
  let citeproc = NaN;
  try {
    const dir = new URL("node_modules/.deno/citeproc@2.4.63/node_modules/citeproc/citeproc_commonjs.js", ROOT);
    citeproc = (await Deno.stat(dir)).size;
  } catch {
    citeproc = NaN;
  }
  let styles = 0;
  const dir = new URL("src/sources/citations/styles/", ROOT);
  for await (const e of Deno.readDir(dir)) {
    if (e.name.endsWith(".ts")) styles += (await Deno.stat(new URL(e.name, dir))).size;
  }
  return { citeproc, styles };
}

/** Modules of the stdio server's static graph (what Deno reads at start) that belong to the engine. */
async function engineModulesAtStart(): Promise<{ total: number; engine: string[] }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: ROOT,
    stdout: "piped",
  })
    .output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
    npmPackages?: object;
  };
  // `npmPackages` lists the whole lockfile; `modules` is the graph Deno loads at start.
  const specifiers = info.modules.map((m) => m.specifier);
  return {
    total: specifiers.length,
    engine: specifiers.filter((s) => /citeproc|citations\/(engine|styles\/)/.test(s)),
  };
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const samples = options.quick ? 3 : 7;
  await probe(); // warms Deno's module cache; not measured
  const runs: Probe[] = [];
  const stalls: { worker: Stall; inline: Stall }[] = [];
  for (let i = 0; i < samples; i++) {
    runs.push(await probe());
    stalls.push({ worker: await probe("worker"), inline: await probe("inline") });
  }
  const workerStall = median(stalls.map((s) => s.worker.longestStallMs));
  const inlineStall = median(stalls.map((s) => s.inline.longestStallMs));
  const m = (f: (p: Probe) => number) => median(runs.map(f));
  const bytes = await engineBytes();
  const graph = await engineModulesAtStart();
  const styleMs = (style: string) => m((p) => p.styles[style].ms);
  /** RSS a style's first call added (over the RSS before it). */
  const styleMiB = (style: string) =>
    m((p) => {
      const names = Object.keys(p.styles);
      const before = names.indexOf(style) === 0 ? p.rssStart : p.styles[names[names.indexOf(style) - 1]].rss;
      return (p.styles[style].rss - before) / MIB;
    });
  const light = Object.keys(runs[0].styles).filter((s) => s !== "apa_string" && s !== "chicago_author_date_string");
  const total = m((p) => (Object.values(p.styles).at(-1)!.rss - p.rssStart) / MIB);
  return [
    {
      name: "citation engine on disk: citeproc-js + 8 CSL styles + 2 locales",
      value: (bytes.citeproc + bytes.styles) / 1024,
      unit: "KiB",
      command: COMMAND,
      notes: `citeproc_commonjs.js ${(bytes.citeproc / 1024).toFixed(0)} KiB, style/locale modules ${
        (bytes.styles / 1024).toFixed(0)
      } KiB (read only on the first formatted export)`,
    },
    {
      name: "citation engine modules in the stdio server's start-up graph",
      value: graph.engine.length,
      unit: "modules",
      target: "= 0 (cold start unchanged)",
      pass: graph.engine.length === 0,
      command: COMMAND,
      notes: `deno info main.ts: ${graph.total} modules, none of citeproc or the styles${
        graph.engine.length ? `; found ${graph.engine.join(", ")}` : ""
      }`,
    },
    {
      name: "first apa_string in a fresh process: citeproc + APA + en-US loaded, engine built (median)",
      value: styleMs("apa_string"),
      unit: "ms",
      command: COMMAND,
      notes: `${samples} processes; +${styleMiB("apa_string").toFixed(0)} MiB RSS; ris+bibtex+csl_json before it ${
        m((p) => p.writersMs).toFixed(1)
      } ms`,
    },
    {
      name: "warm apa_string, same process (median)",
      value: m((p) => p.warmMs),
      unit: "ms",
      command: COMMAND,
      notes: `first / warm = ${(styleMs("apa_string") / m((p) => p.warmMs)).toFixed(0)}×`,
    },
    {
      name: "first chicago_author_date_string (the largest style, 168 KB; median)",
      value: styleMs("chicago_author_date_string"),
      unit: "ms",
      command: COMMAND,
      notes: `+${styleMiB("chicago_author_date_string").toFixed(0)} MiB RSS`,
    },
    {
      name: "first use of the six other styles, each (median of the slowest)",
      value: m((p) => Math.max(...light.map((s) => p.styles[s].ms))),
      unit: "ms",
      command: COMMAND,
      notes: `${light.join(", ")}: ${light.map((s) => `${styleMs(s).toFixed(0)} ms`).join(", ")}`,
    },
    {
      name: "server thread's longest stall while the first Chicago reference renders: worker / inline (median)",
      value: workerStall / inlineStall,
      unit: "×",
      target: "≤ 0.1× (the engine build leaves the server's thread)",
      pass: workerStall / inlineStall <= 0.1,
      command: COMMAND,
      notes: `${samples} processes each, alternating: longest gap of a 5 ms timer ${
        workerStall.toFixed(0)
      } ms on the worker vs ${inlineStall.toFixed(0)} ms inline (render ${
        median(stalls.map((s) => s.worker.renderMs)).toFixed(0)
      } vs ${median(stalls.map((s) => s.inline.renderMs)).toFixed(0)} ms)`,
    },
    {
      name: "resident memory all eight formatted styles add (median)",
      value: total,
      unit: "MiB",
      command: COMMAND,
      notes: "each sample its own process; engines are kept for the process's life",
    },
  ];
}
