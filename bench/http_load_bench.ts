/**
 * HTTP load (scripts/load_test.ts): the server as `deno task serve` runs it; N concurrent sessions × M calls
 * of cached tools, first back to back (closed loop: throughput; latency there is queueing behind the other
 * sessions), then paced at 5 calls/s per session (the p99 target), then a steady-rate soak with RSS
 * sampled, then abandoned sessions that the idle timeout must reap. The 10-minute soak runs on demand:
 * `deno run -A scripts/load_test.ts`.
 */
import { FULL, type LoadTestOptions, rssIsFlat, runLoadTest, TARGET_P99_MS } from "../scripts/load_test.ts";
import { MIB } from "../scripts/load_test/stats.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const COMMAND = "deno task bench http_load";

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const settings: LoadTestOptions = options.quick
    ? { ...FULL, sessions: 20, callsPerSession: 50, soakSeconds: 5, abandon: 200, idleMs: 1000 }
    : { ...FULL, soakSeconds: 30, idleMs: 2000 };
  const r = await runLoadTest(settings);
  const load = `${settings.sessions} sessions × ${settings.callsPerSession} calls`;
  const soak = `soak ${settings.soakRate}/s for ${settings.soakSeconds} s`;
  const tools = `${r.workload.calls.length} cached tools (${r.workload.calls.map((c) => c.tool).join(", ")})`;
  const peak = Math.max(...r.rss.map((s) => s.bytes));
  const paced = `${load} at ${settings.perSessionRate}/s each`;
  return [
    {
      name: `HTTP burst ${load} (closed loop): throughput`,
      value: r.burst.throughput,
      unit: "calls/s",
      target: "errors = 0",
      pass: r.burst.errors === 0,
      command: COMMAND,
      notes: `${r.burst.calls} calls in ${r.burst.wallS.toFixed(1)} s, ${r.burst.errors} errors; ${tools}`,
    },
    {
      name: `HTTP burst ${load} (closed loop): p50 / p99`,
      value: r.burst.p99,
      unit: "ms",
      command: COMMAND,
      notes:
        `p50 ${
          r.burst.p50.toFixed(1)
        } ms; ${settings.sessions} calls always in flight, so latency ≈ ${settings.sessions} / ` +
        `throughput (queueing), not a target`,
    },
    { name: `HTTP load ${paced}: p50`, value: r.load.p50, unit: "ms", command: COMMAND },
    {
      name: `HTTP load ${paced}: p99`,
      value: r.load.p99,
      unit: "ms",
      target: `≤ ${TARGET_P99_MS} ms`,
      pass: r.load.p99 <= TARGET_P99_MS,
      command: COMMAND,
      notes: `${r.load.calls} calls, max ${r.load.max.toFixed(0)} ms`,
    },
    {
      name: `HTTP load ${paced}: errors`,
      value: r.load.errors,
      unit: "",
      target: "= 0",
      pass: r.load.errors === 0,
      command: COMMAND,
      notes: JSON.stringify(r.load.errorKinds).slice(0, 200),
    },
    {
      name: `HTTP ${soak}: p99`,
      value: r.soak.p99,
      unit: "ms",
      target: `≤ ${TARGET_P99_MS} ms, 0 errors`,
      pass: r.soak.p99 <= TARGET_P99_MS && r.soak.errors === 0,
      command: COMMAND,
      notes: `${r.soak.calls} calls, p50 ${r.soak.p50.toFixed(2)} ms, ${r.soak.errors} errors`,
    },
    {
      name: `HTTP ${soak}: RSS last/first quarter`,
      value: r.soak.rss.ratio,
      unit: "×",
      target: "≤ 1.10 (or +16 MiB)",
      pass: rssIsFlat(r.soak.rss),
      command: COMMAND,
      notes: `${(r.soak.rss.first / MIB).toFixed(0)} → ${(r.soak.rss.last / MIB).toFixed(0)} MiB; peak over the run ${
        (peak / MIB).toFixed(0)
      } MiB`,
    },
    {
      name: `HTTP: ${settings.abandon} abandoned sessions reaped`,
      value: r.abandon.reaped,
      unit: "sessions",
      target: `= ${settings.abandon}`,
      pass: r.abandon.reaped === settings.abandon && r.abandon.refused === 0 && r.abandon.reopened,
      command: COMMAND,
      notes: `idle timeout ${settings.idleMs} ms, probed after ${r.abandon.waitedS.toFixed(1)} s; RSS ${
        (r.abandon.rssBefore / MIB).toFixed(0)
      } → ${(r.abandon.rssOpened / MIB).toFixed(0)} opened → ${(r.abandon.rssAfter / MIB).toFixed(0)} MiB reaped`,
    },
  ];
}
