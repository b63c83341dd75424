/**
 * Which calls the load runs: every catalogue tool's first example that, once warmed, is answered without
 * any upstream request (local tools, cache hits) and — for benchmarks — costs little on its own, the
 * steady traffic of a busy server. Tools left out are listed with the reason, so the choice is visible in
 * the report. The cost filter is a timing, so the CI test leaves it off: its choice must not depend on
 * how busy the machine is.
 */
import { ALL_TOOLS } from "../../src/catalog.ts";
import type { MockUpstream } from "../mock_upstream.ts";
import { McpHttpSession } from "./mcp_session.ts";
import { percentile } from "./stats.ts";

export interface WorkCall {
  tool: string;
  args: unknown;
  /** Median latency of a warm call on an idle server. */
  warmMs: number;
}

export interface Workload {
  calls: WorkCall[];
  excluded: { tool: string; reason: string }[];
}

/** Warm calls slower than this on an idle server are CPU-bound work, not cached traffic (benchmarks). */
export const CHEAP_MS = 10;

export async function selectWorkload(base: string, mock: MockUpstream, maxWarmMs = Infinity): Promise<Workload> {
  const session = await McpHttpSession.open(base);
  const calls: WorkCall[] = [];
  const excluded: Workload["excluded"] = [];
  try {
    for (const def of ALL_TOOLS) {
      const args = def.examples[0];
      if (args === undefined) {
        excluded.push({ tool: def.name, reason: "no example" });
        continue;
      }
      const first = await session.call(def.name, args);
      if (!first.ok) {
        excluded.push({ tool: def.name, reason: `example fails against the mock: ${first.error}` });
        continue;
      }
      const before = mock.requests.length;
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) warm.push((await session.call(def.name, args)).ms);
      const upstream = mock.requests.length - before;
      const warmMs = percentile(warm, 50);
      if (upstream > 0) {
        excluded.push({ tool: def.name, reason: `not cached: ${upstream} upstream requests when warm` });
      } else if (warmMs > maxWarmMs) {
        excluded.push({ tool: def.name, reason: `warm call takes ${warmMs.toFixed(1)} ms` });
      } else calls.push({ tool: def.name, args, warmMs });
    }
  } finally {
    await session.close();
  }
  return { calls, excluded };
}
