/**
 * One rate budget across instances (SCIENCE_MCP_KV), measured at the upstream: 1, 2 and 4 server
 * processes (`deno run -P=http main.ts serve`), then one `deno serve --parallel` with 4 workers, all on one
 * KV file under ./.cache, call distinct tools as fast as they can for 15 s (4 callers per instance), against
 * the mock upstream enforcing NCBI's 3 req/s at arrival. Total NCBI throughput must stay at the limit
 * whatever the number of instances: at most 3 req/s (peak in any second ≤ 3, no 429), and at least 80 % of
 * it (≥ 2.4 req/s; the margin allows 334 ms + 10 % = 2.72 req/s), counted from the first call — each
 * instance's cold start included. Full runs add the same processes without the KV setting, to show what the
 * shared budget prevents. A server that reports the shared budget unavailable (it then paces alone, as without
 * the setting) fails the 429 row whatever the mock counted, and its warning is quoted in the notes: the one
 * unexplained failure of this row (20:08 UTC, 2026-11-28: the very figures of the row without the setting) was
 * such a degraded budget, left silent on the servers' stderr.
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
  /** NCBI requests per second over the run, counted from the first call. */
  rate: number;
  /** From the first call to the first arrival. */
  firstS: number;
  calls: number;
  /** The servers' warnings about the shared budget (unavailable, repaired), one per line. */
  budgetWarnings: string[];
}

const CALLERS_PER_INSTANCE = 4;

async function measure(
  count: number,
  mode: "run" | "serve-parallel",
  seconds: number,
  shared = true,
): Promise<Measured> {
  const mock = await startMockUpstream();
  const kv = kvFile();
  const env: Record<string, string> = { ...mock.env, ...(shared ? { SCIENCE_MCP_KV: kv.path } : {}) };
  const instances = await startInstances({ count, mode, env, mockHost: new URL(mock.url).host });
  let stopped = false;
  try {
    const started = performance.now();
    const until = started + seconds * 1000;
    let next = 0;
    const results: boolean[] = [];
    await Promise.all(
      Array.from({ length: count * CALLERS_PER_INSTANCE }, async (_, caller) => {
        while (performance.now() < until) {
          const result = await instances.clients[caller % count].callTool({
            name: "searchPubMedArticles",
            arguments: { queryTerm: `kv bench ${count} ${mode} ${next++}` },
          });
          results.push(!result.isError);
        }
      }),
    );
    await instances.stop();
    stopped = true;
    const arrivals = mock.requests.filter((r) => r.upstream === "ncbi-eutils").map((r) => r.at).sort((a, b) => a - b);
    const inRun = arrivals.filter((at) => at <= until);
    return {
      succeeded: results.filter(Boolean).length,
      calls: results.length,
      requests: arrivals.length,
      violations: totalViolations(mock),
      peakPerSecond: maxInWindow(arrivals, 1000),
      rate: inRun.length / seconds,
      firstS: (arrivals[0] - started) / 1000,
      budgetWarnings: budgetWarnings(instances.stderr()),
    };
  } finally {
    if (!stopped) await instances.stop();
    await mock.close();
    await kv.remove();
  }
}

/** The servers' log lines about the shared budget (JSON records on stderr), as `msg: error`. */
function budgetWarnings(stderr: string): string[] {
  return stderr.split("\n").flatMap((line) => {
    try {
      const record = JSON.parse(line);
      return /shared rate budget/.test(record.msg) && record.level === "warning"
        ? [`${record.msg}${record.error ? `: ${record.error}` : ""}`]
        : [];
    } catch {
      return [];
    }
  });
}

function rows(label: string, m: Measured, seconds: number, command: string): BenchRow[] {
  const degraded = m.budgetWarnings.filter((w) => /unavailable/.test(w));
  return [
    {
      name: `shared budget, ${label}: NCBI requests/s at the mock over ${seconds} s from start`,
      value: m.rate,
      unit: "req/s",
      target: "2.4–3 (≥ 80 % of the published 3)",
      pass: m.rate >= 2.4 && m.rate <= 3 && m.succeeded === m.calls,
      command,
      notes: `${m.requests} requests for ${m.succeeded}/${m.calls} calls; first arrival after ${m.firstS.toFixed(1)} s`,
    },
    {
      name: `shared budget, ${label}: 429s at the mock / peak per second`,
      value: m.violations,
      unit: "violations",
      target: "0, peak ≤ 3, no server pacing alone",
      pass: m.violations === 0 && m.peakPerSecond <= 3 && degraded.length === 0,
      command,
      notes: `peak ${m.peakPerSecond} arrivals in one second` +
        (m.budgetWarnings.length ? `; servers warned: ${[...new Set(m.budgetWarnings)].join(" | ")}` : ""),
    },
  ];
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} kv_budget`;
  const seconds = options.quick ? 8 : 15;
  const out: BenchRow[] = [];
  for (const count of options.quick ? [1, 2] : [1, 2, 4]) {
    out.push(
      ...rows(`${count} process${count > 1 ? "es" : ""}`, await measure(count, "run", seconds), seconds, command),
    );
  }
  const workers = options.quick ? 2 : 4;
  out.push(
    ...rows(
      `deno serve --parallel, ${workers} workers`,
      await measure(workers, "serve-parallel", seconds),
      seconds,
      command,
    ),
  );
  if (!options.quick) {
    const alone = await measure(2, "run", seconds, false);
    out.push({
      name: "without SCIENCE_MCP_KV, 2 processes: NCBI requests/s at the mock (each paces alone)",
      value: alone.rate,
      unit: "req/s",
      command,
      notes:
        `${alone.requests} requests for ${alone.calls} calls, ${alone.violations} 429s, peak ${alone.peakPerSecond} per ` +
        "second: what the shared budget prevents",
    });
  }
  return out;
}
