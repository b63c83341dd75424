/**
 * One rate budget across instances (SCIENCE_MCP_KV), measured at the upstream: 1, 2 and 4 server
 * processes (`deno run -P=http mod.ts serve`), then one `deno serve --parallel` with 4 workers, all on one
 * KV file under ./.cache, take a burst of distinct tool calls spread over them, against the mock upstream
 * enforcing NCBI's 3 req/s at arrival. Total NCBI throughput must stay at the limit whatever the number
 * of instances: at most 3 req/s (peak in any second ≤ 3, no 429), and no less than the margin allows
 * (≥ 2.5 req/s; 334 ms + 10 % = 2.72 req/s). Throughput is counted after start-up: each instance's first
 * request holds the shared budget until it is answered (a fresh process's first send is late), so the
 * first N arrivals are left out of the rate and reported as start-up time. Full runs add the same
 * processes without the KV setting, to show what the shared budget prevents.
 */
import { startMockUpstream } from "../scripts/mock_upstream.ts";
import { kvFile, startInstances } from "./instances.ts";
import { maxInWindow, totalViolations } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

interface Measured {
  succeeded: number;
  requests: number;
  violations: number;
  peakPerSecond: number;
  /** NCBI requests per second after start-up. */
  rate: number;
  /** From the first call to the arrival of the N-th request (the instances' cold starts). */
  startupS: number;
}

async function measure(count: number, mode: "run" | "serve-parallel", calls: number, shared = true): Promise<Measured> {
  const mock = await startMockUpstream();
  const kv = kvFile();
  const env: Record<string, string> = { ...mock.env, ...(shared ? { SCIENCE_MCP_KV: kv.path } : {}) };
  const instances = await startInstances({ count, mode, env, mockHost: new URL(mock.url).host });
  try {
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        instances.clients[i % count].callTool({
          name: "searchPubMedArticles",
          arguments: { queryTerm: `kv bench ${count} ${mode} ${i}` },
        })),
    );
    const arrivals = mock.requests.filter((r) => r.upstream === "ncbi-eutils").map((r) => r.at).sort((a, b) => a - b);
    const warm = arrivals.slice(Math.min(count, arrivals.length - 2));
    return {
      succeeded: results.filter((r) => !r.isError).length,
      requests: arrivals.length,
      violations: totalViolations(mock),
      peakPerSecond: maxInWindow(arrivals, 1000),
      rate: (warm.length - 1) / ((warm[warm.length - 1] - warm[0]) / 1000),
      startupS: (warm[0] - started) / 1000,
    };
  } finally {
    await instances.stop();
    await mock.close();
    await kv.remove();
  }
}

function rows(label: string, m: Measured, calls: number, command: string): BenchRow[] {
  return [
    {
      name: `shared budget, ${label}: NCBI requests/s at the mock after start-up`,
      value: m.rate,
      unit: "req/s",
      target: "2.5–3 (published 3, minus the 10 % margin)",
      pass: m.rate >= 2.5 && m.rate <= 3 && m.succeeded === calls,
      command,
      notes: `${m.requests} requests for ${m.succeeded}/${calls} calls; start-up ${m.startupS.toFixed(1)} s`,
    },
    {
      name: `shared budget, ${label}: 429s at the mock / peak per second`,
      value: m.violations,
      unit: "violations",
      target: "0, peak ≤ 3",
      pass: m.violations === 0 && m.peakPerSecond <= 3,
      command,
      notes: `peak ${m.peakPerSecond} arrivals in one second`,
    },
  ];
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} kv_budget`;
  const calls = options.quick ? 20 : 40;
  const out: BenchRow[] = [];
  for (const count of options.quick ? [1, 2] : [1, 2, 4]) {
    out.push(...rows(`${count} process${count > 1 ? "es" : ""}`, await measure(count, "run", calls), calls, command));
  }
  const workers = options.quick ? 2 : 4;
  out.push(
    ...rows(
      `deno serve --parallel, ${workers} workers`,
      await measure(workers, "serve-parallel", calls),
      calls,
      command,
    ),
  );
  if (!options.quick) {
    const alone = await measure(2, "run", calls, false);
    out.push({
      name: "without SCIENCE_MCP_KV, 2 processes: NCBI requests/s at the mock (each paces alone)",
      value: alone.rate,
      unit: "req/s",
      command,
      notes: `${alone.violations} 429s, peak ${alone.peakPerSecond} per second: what the shared budget prevents`,
    });
  }
  return out;
}
