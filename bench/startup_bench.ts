/**
 * Start-up and per-call overhead of the real entry points, as subprocesses started like `deno task
 * start` (-P=stdio) and `deno task serve` (-P=http, MCP_AUTH_MODE=none on 127.0.0.1): spawn → first
 * tools/list over stdio (Deno's module cache warm, the process cold), spawn → /healthz over HTTP, and the
 * round trip of a tools/call to a tool that makes no upstream request (get_compound_image_url when it
 * exists), sequentially, over stdio and over HTTP.
 */
import { ALL_TOOLS } from "../src/catalog.ts";
import { McpHttpSession } from "../scripts/load_test/mcp_session.ts";
import { startServerProcess } from "../scripts/load_test/server_process.ts";
import { percentile } from "../scripts/load_test/stats.ts";
import { startStdioServer } from "../scripts/load_test/stdio_session.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const COMMAND = "deno task bench startup";

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
  const starts = options.quick ? 3 : 10;
  const calls = options.quick ? 100 : 1000;
  const tool = cheapTool();
  const rows: BenchRow[] = [];

  await (await startStdioServer()).close(); // warms Deno's module cache; not measured
  const cold: number[] = [];
  for (let i = 0; i < starts; i++) {
    const server = await startStdioServer();
    cold.push(server.coldStartMs);
    await server.close();
  }
  rows.push({
    name: "cold start over stdio: spawn → first tools/list (median)",
    value: percentile(cold, 50),
    unit: "ms",
    command: COMMAND,
    notes: `${starts} starts, max ${Math.max(...cold).toFixed(0)} ms; deno run -P=stdio mod.ts serve --transport stdio`,
  });

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
    notes: "deno run -P=http mod.ts serve (MCP_AUTH_MODE=none, 127.0.0.1)",
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
