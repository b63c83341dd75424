/**
 * What tools/list costs every conversation: the compact JSON of the real tools/list answer (every toolset
 * enabled, over an in-memory MCP client), in characters, in total and per tool, against the budget of
 * 1,100 characters per tool on average (tests/contract/tools_list_budget_test.ts holds the same line), and
 * whether what it serves from the generated manifest (src/generated/manifest.json) still equals zod's.
 */
import { loadConfig, TOOLSET_NAMES } from "../src/config.ts";
import { createLogger } from "../src/core/log.ts";
import { createRuntime } from "../src/runtime.ts";
import { Client, InMemoryTransport } from "../src/sdk_client.ts";
import { createMcpServer } from "../src/server.ts";
import { ALL_TOOLS } from "../src/catalog.ts";
import { lazyCatalogue } from "../src/lazy_catalog.ts";
import { toolInfo } from "../src/manifest.ts";
import type { BenchRow } from "./types.ts";

const COMMAND = "deno task bench tools_list";
const BUDGET_PER_TOOL = 1_100;

/** Catalogue tools whose generated tools/list entry no longer equals what zod converts to now. */
function staleRow(): BenchRow {
  const listed = new Map(lazyCatalogue(TOOLSET_NAMES).tools.map((t) => [t.name, JSON.stringify(t)]));
  const stale = ALL_TOOLS.filter((def) => listed.get(def.name) !== JSON.stringify(toolInfo(def))).map((d) => d.name);
  return {
    name: "tools/list: tools whose pre-generated schemas differ from zod's",
    value: stale.length,
    unit: "tools",
    target: "= 0 (else run deno task docs)",
    pass: stale.length === 0,
    command: COMMAND,
    notes: stale.length ? stale.join(", ") : `all ${ALL_TOOLS.length} served from src/generated/manifest.json`,
  };
}

export async function run(): Promise<BenchRow[]> {
  const runtime = createRuntime({
    config: loadConfig({ SCIENCE_MCP_TOOLSETS: TOOLSET_NAMES.join(",") }),
    log: createLogger({ level: "error", sinks: [] }),
  });
  const server = createMcpServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "tools-list-bench", version: "1" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const result = await client.listTools();
    const total = JSON.stringify(result).length;
    const perTool = total / result.tools.length;
    const largest = result.tools.map((t) => ({ name: t.name, size: JSON.stringify(t).length }))
      .sort((a, b) => b.size - a.size).slice(0, 3).map((t) => `${t.name} ${t.size}`).join(", ");
    return [
      {
        name: "tools/list: compact JSON, total",
        value: total,
        unit: "chars",
        command: COMMAND,
        notes: `${result.tools.length} tools, all toolsets enabled (~${Math.round(total / 4)} tokens)`,
      },
      {
        name: "tools/list: compact JSON, per tool (average)",
        value: Math.round(perTool),
        unit: "chars",
        target: `≤ ${BUDGET_PER_TOOL}`,
        pass: perTool <= BUDGET_PER_TOOL,
        command: COMMAND,
        notes: `largest: ${largest}`,
      },
      staleRow(),
    ];
  } finally {
    await client.close();
    await server.close();
    await runtime.close();
  }
}
