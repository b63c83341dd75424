/**
 * Start-up and per-call overhead of the real entry points, as subprocesses started like `deno task
 * start` (-P=stdio) and `deno task serve` (-P=http, MCP_AUTH_MODE=none on 127.0.0.1): spawn → first
 * tools/list over stdio (Deno's module cache warm, the process cold), side by side with the floor — a bare
 * SDK server answering the same tools/list from a static file (bench/fixtures/floor_server.ts), started
 * alternately in the same run so both see the same load — then spawn → /healthz over HTTP, and the
 * round trip of a tools/call to a tool that makes no upstream request (get_compound_image_url when it
 * exists), sequentially, over stdio and over HTTP.
 */
import { ALL_TOOLS } from "../src/catalog.ts";
import { McpHttpSession } from "../scripts/load_test/mcp_session.ts";
import { passThrough, startServerProcess } from "../scripts/load_test/server_process.ts";
import { percentile } from "../scripts/load_test/stats.ts";
import { startStdioServer } from "../scripts/load_test/stdio_session.ts";
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const COMMAND = "deno task bench startup";
/** Issue #36: what the server evaluates before answering tools/list, beyond what the SDK costs alone. */
const CPU_RATIO_TARGET = 1.2;
const ROOT = new URL("../", import.meta.url).pathname;
export const SERVER_ARGS = ["run", "-q", "-P=stdio", "main.ts", "serve", "--transport", "stdio"];
export const floorArgs = (
  file: string,
) => ["run", "-q", `--allow-read=${file}`, "bench/fixtures/floor_server.ts", file];

interface ColdStart {
  ms: number;
  /** CPU (user + system) of the spawned process when tools/list was answered, from /proc/<pid>/stat. */
  cpuMs: number;
  /** The tools/list answer (the JSON-RPC `result`), as text. */
  toolsList: string;
}

/**
 * CPU time of process `pid` so far, in ms (Linux; NaN elsewhere): the sum over its threads of
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds on a CPU), since /proc/<pid>/stat counts 10 ms ticks and a
 * start costs ~100 ms; every thread is still alive when it is read (before the process is killed).
 */
export async function processCpuMs(pid: number): Promise<number> {
  try {
    let ns = 0;
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      ns += Number((await Deno.readTextFile(`/proc/${pid}/task/${task.name}/schedstat`)).split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/**
 * Spawns `deno <args>`, writes initialize, initialized and tools/list at once, and times spawn → the
 * tools/list answer; the same driver for the server and the floor, so the difference is theirs.
 */
export async function coldStart(args: string[], cwd = ROOT): Promise<ColdStart> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    clearEnv: true,
    env: { ...passThrough("PATH", "HOME", "DENO_DIR"), NO_COLOR: "1", MCP_LOG_LEVEL: "error" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const messages = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "startup-bench", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
  ];
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(messages.map((m) => JSON.stringify(m)).join("\n") + "\n"));
  const decoder = new TextDecoder();
  let buffered = "";
  let toolsList: string | undefined;
  try {
    for await (const chunk of child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      const line = buffered.split("\n").find((l) => l.includes('"id":2'));
      if (line && buffered.endsWith("\n")) {
        toolsList = JSON.stringify(JSON.parse(line).result);
        break;
      }
    }
    const ms = performance.now() - started;
    const cpuMs = await processCpuMs(child.pid);
    if (!toolsList || !JSON.parse(toolsList)?.tools?.length) {
      throw new Error(`no tools/list answer from deno ${args.join(" ")}`);
    }
    return { ms, cpuMs, toolsList };
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel().catch(() => {});
  }
}

/** Interleaved cold starts of the server and the floor; rows with both medians and their ratio. */
async function coldStartRows(starts: number): Promise<BenchRow[]> {
  const first = await coldStart(SERVER_ARGS); // warms Deno's module cache; not measured
  const file = await Deno.makeTempFile({ prefix: "tools-list-", suffix: ".json" });
  try {
    await Deno.writeTextFile(file, first.toolsList);
    await coldStart(floorArgs(file));
    const server: ColdStart[] = [];
    const floor: ColdStart[] = [];
    for (let i = 0; i < starts; i++) {
      server.push(await coldStart(SERVER_ARGS));
      floor.push(await coldStart(floorArgs(file)));
    }
    const wall = median(server.map((s) => s.ms)) / median(floor.map((s) => s.ms));
    const cpu = median(server.map((s) => s.cpuMs)) / median(floor.map((s) => s.cpuMs));
    const note = `${starts} alternate starts each; median ${median(server.map((s) => s.ms)).toFixed(0)} ms vs floor ${
      median(floor.map((s) => s.ms)).toFixed(0)
    } ms; the same ${first.toolsList.length}-character tools/list`;
    return [
      {
        name: "cold start over stdio: spawn → first tools/list (median)",
        value: median(server.map((s) => s.ms)),
        unit: "ms",
        command: COMMAND,
        notes: `${starts} starts, max ${
          Math.max(...server.map((s) => s.ms)).toFixed(0)
        } ms; deno run -P=stdio main.ts serve --transport stdio`,
      },
      {
        name: "cold start floor: bare SDK server, same tools/list from a file (median)",
        value: median(floor.map((s) => s.ms)),
        unit: "ms",
        command: COMMAND,
        notes: `${starts} starts, max ${
          Math.max(...floor.map((s) => s.ms)).toFixed(0)
        } ms; bench/fixtures/floor_server.ts`,
      },
      {
        name: "cold start: server / floor, wall time",
        value: wall,
        unit: "×",
        target: "≤ 1.25×",
        pass: wall <= 1.25,
        command: COMMAND,
        notes: note,
      },
      {
        name: "cold start to tools/list: server ÷ floor, CPU",
        value: cpu,
        unit: "×",
        target: `≤ ${CPU_RATIO_TARGET}×`,
        pass: cpu <= CPU_RATIO_TARGET,
        command: COMMAND,
        notes: `medians of ${starts} interleaved starts each: ${median(server.map((s) => s.cpuMs)).toFixed(1)} ms ` +
          `(deno run -P=stdio main.ts serve --transport stdio) vs ${
            median(floor.map((s) => s.cpuMs)).toFixed(1)
          } ms (bench/fixtures/floor_server.ts: a bare SDK server answering the same ${first.toolsList.length}-` +
          "character tools/list from a file); CPU of every thread of the process from spawn until the tools/list " +
          "answer (/proc/<pid>/task/*/schedstat, ns); less sensitive to load than wall time; before #36's cuts " +
          "(main 9caa80a, `deno task bench startup`, 2026-11-28 19:53–19:55 UTC, load 0.3–1.0, two runs interleaved " +
          "with two after them): 1.27×, 1.32× (after: 1.20×, 1.19×)",
      },
    ];
  } finally {
    await Deno.remove(file);
  }
}

/** A tool whose example needs no network: the call measures the server, not an upstream. */
function cheapTool(): { name: string; args: unknown } | undefined {
  const local = ALL_TOOLS.filter((t) => !t.annotations.openWorldHint && t.examples.length > 0);
  const def = local.find((t) => t.name === "get_compound_image_url") ?? local[0];
  return def && { name: def.name, args: def.examples[0] };
}

function latencyRows(transport: string, tool: string, ms: number[], errors: number): BenchRow[] {
  const note = `${ms.length} sequential calls of ${tool}, ${errors} errors`;
  return [
    {
      name: `tools/call overhead over ${transport}: p50`,
      value: percentile(ms, 50),
      unit: "ms",
      command: COMMAND,
      notes: note,
    },
    {
      name: `tools/call overhead over ${transport}: p99`,
      value: percentile(ms, 99),
      unit: "ms",
      target: "errors = 0",
      pass: errors === 0,
      command: COMMAND,
      notes: note,
    },
  ];
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  // At least 9 interleaved starts each (#36), quick or not: a start is a fraction of a second, and the
  // median of 21 moves less with the load than that of 11.
  const starts = options.quick ? 9 : 21;
  const calls = options.quick ? 100 : 1000;
  const tool = cheapTool();
  const rows: BenchRow[] = [];

  rows.push(...await coldStartRows(starts));

  if (tool) {
    const stdio = await startStdioServer();
    const ms: number[] = [];
    let errors = 0;
    try {
      for (let i = 0; i < calls; i++) {
        const r = await stdio.call(tool.name, tool.args);
        ms.push(r.ms);
        if (!r.ok) errors++;
      }
    } finally {
      await stdio.close();
    }
    rows.push(...latencyRows("stdio", tool.name, ms, errors));
  }

  const spawned = performance.now();
  const http = await startServerProcess({ env: {}, allowNet: [] });
  rows.push({
    name: "cold start over HTTP: spawn → /healthz answers",
    value: performance.now() - spawned,
    unit: "ms",
    command: COMMAND,
    notes: "deno run -P=http main.ts serve (MCP_AUTH_MODE=none, 127.0.0.1)",
  });
  try {
    if (tool) {
      const session = await McpHttpSession.open(http.base);
      const ms: number[] = [];
      let errors = 0;
      for (let i = 0; i < calls; i++) {
        const r = await session.call(tool.name, tool.args);
        ms.push(r.ms);
        if (!r.ok) errors++;
      }
      await session.close();
      rows.push(...latencyRows("HTTP", tool.name, ms, errors));
    }
  } finally {
    await http.stop();
  }
  return rows;
}
