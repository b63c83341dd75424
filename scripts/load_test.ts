/**
 * HTTP load, soak and session reaping, on loopback only. The server runs as a subprocess exactly as
 * `deno task serve` runs it (-P=http, MCP_AUTH_MODE=none on 127.0.0.1), its upstreams answered by the mock
 * upstream in this process. Phases: load (N concurrent sessions × M calls of cached tools), soak (a steady
 * rate for a fixed time, RSS sampled throughout), abandon (sessions opened and left, then reaped by the
 * idle timeout). The abandon phase gets a server of its own with the short idle timeout it tests: on the
 * load server a CPU-bound burst could otherwise stall a session's next request past it. Every loop is
 * bounded in count and in time; the script stops by itself.
 *
 * Usage: `deno run -A scripts/load_test.ts [--quick | --ci] [--soak-seconds N] [--sessions N] [--calls N]
 * [--abandon N] [--json FILE]`. Full: 50 × 200, a 10-minute soak at 50 calls/s, 1,000 abandoned sessions.
 * Exits 1 when a target is missed: 0 errors anywhere; p99 ≤ 20 ms for the paced load (each of the N sessions
 * calling 5 times a second) and the soak; flat RSS; every abandoned session reaped. The closed-loop burst
 * (every session calling back to back) measures throughput; its latency is queueing (≈ N / throughput).
 * Timings are targets for the benchmark (`deno task bench http_load`); the CI test (`CI`) checks only what
 * does not depend on the machine's speed: no errors, and every abandoned session reaped.
 */
import { startMockUpstream } from "./mock_upstream.ts";
import { type AbandonResult, type PhaseResult, runAbandon, runLoad, runSoak } from "./load_test/phases.ts";
import { startServerProcess } from "./load_test/server_process.ts";
import { MIB, rssGrowth, type RssSample } from "./load_test/stats.ts";
import { CHEAP_MS, selectWorkload, type Workload } from "./load_test/workload.ts";

export interface LoadTestOptions {
  sessions: number;
  callsPerSession: number;
  /** Calls per second of each session in the paced load phase. */
  perSessionRate: number;
  soakSeconds: number;
  soakRate: number;
  soakSessions: number;
  abandon: number;
  /** MCP_SESSION_IDLE_TIMEOUT_MS of the server. */
  idleMs: number;
  /** Leave out tools whose warm call is slower than this (a timing: benchmarks only). */
  maxWarmMs?: number;
  /** Probe rounds for abandoned sessions (see runAbandon). */
  abandonRounds?: number;
  log?: (line: string) => void;
}

export const FULL: LoadTestOptions = {
  sessions: 50,
  callsPerSession: 200,
  perSessionRate: 5,
  soakSeconds: 600,
  soakRate: 50,
  soakSessions: 10,
  abandon: 1000,
  idleMs: 5000,
  maxWarmMs: CHEAP_MS,
};
/** `deno task bench --quick`: the same load, a 20 s soak. */
export const QUICK: LoadTestOptions = { ...FULL, callsPerSession: 40, soakSeconds: 20, idleMs: 2000 };
/** The CI test: modest numbers, and nothing chosen or judged by a timing. */
export const CI: LoadTestOptions = {
  ...FULL,
  sessions: 10,
  callsPerSession: 20,
  soakSeconds: 3,
  soakRate: 30,
  soakSessions: 3,
  abandon: 100,
  idleMs: 1000,
  maxWarmMs: undefined,
  abandonRounds: 5,
};

export interface LoadReport {
  options: Omit<LoadTestOptions, "log">;
  workload: Workload;
  /** Closed loop: every session calls again as soon as answered (saturation). */
  burst: PhaseResult;
  /** The same sessions and calls, each session at perSessionRate. */
  load: PhaseResult;
  soak: PhaseResult & { skipped: number; rss: { first: number; last: number; ratio: number } };
  abandon: AbandonResult & { rssBefore: number; rssOpened: number; rssAfter: number };
  rss: RssSample[];
  seconds: number;
}

export const TARGET_P99_MS = 20;
/** "Flat": the last quarter of the soak within 10 % (or 16 MiB) of the first quarter. */
export function rssIsFlat(r: { first: number; last: number; ratio: number }): boolean {
  return Number.isNaN(r.ratio) || r.ratio <= 1.1 || r.last - r.first <= 16 * MIB;
}

/** Idle timeout of the load server: far beyond any stall, so no loaded session is ever reaped. */
const LOAD_IDLE_MS = 600_000;

export async function runLoadTest(options: LoadTestOptions): Promise<LoadReport> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  // Pacing is the pacing bench's subject; here the mock's real-time rate referee would only add noise.
  const mock = await startMockUpstream({ hostname: "127.0.0.1", rates: false });
  const serve = (idleMs: number, maxSessions: number) =>
    startServerProcess({
      env: {
        ...mock.env,
        MCP_SESSION_IDLE_TIMEOUT_MS: String(idleMs),
        MCP_MAX_SESSIONS: String(maxSessions),
      },
      allowNet: [`127.0.0.1:${mock.port}`],
    });
  let server = await serve(LOAD_IDLE_MS, options.sessions + options.soakSessions + 10);
  const rss: RssSample[] = [];
  const sample = () => rss.push({ t: (performance.now() - started) / 1000, bytes: server.rss() });
  const sampler = setInterval(sample, 1000);
  try {
    const workload = await selectWorkload(server.base, mock, options.maxWarmMs);
    if (workload.calls.length === 0) throw new Error(`no cached tool to load: ${JSON.stringify(workload.excluded)}`);
    log(`workload: ${workload.calls.map((c) => c.tool).join(", ")}`);
    const phase = { sessions: options.sessions, callsPerSession: options.callsPerSession, maxSeconds: 300 };
    const burst = await runLoad(server.base, workload.calls, phase);
    log(
      `burst: ${burst.calls} calls, ${burst.throughput.toFixed(0)}/s, p99 ${
        burst.p99.toFixed(2)
      } ms, ${burst.errors} errors`,
    );
    const load = await runLoad(server.base, workload.calls, { ...phase, perSessionRate: options.perSessionRate });
    log(
      `load: ${load.calls} calls, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, ${load.errors} errors`,
    );
    sample();
    const soakFrom = rss.length;
    const soak = await runSoak(server.base, workload.calls, {
      sessions: options.soakSessions,
      ratePerSecond: options.soakRate,
      seconds: options.soakSeconds,
    });
    sample();
    const soakRss = rssGrowth(rss.slice(soakFrom));
    log(`soak: ${soak.calls} calls, p99 ${soak.p99.toFixed(2)} ms, RSS ×${soakRss.ratio.toFixed(3)}`);
    await server.stop();
    server = await serve(options.idleMs, options.abandon + 10);
    const rssBefore = server.rss();
    let rssOpened = NaN;
    const abandon = await runAbandon(
      server.base,
      { count: options.abandon, idleMs: options.idleMs, concurrency: 25, maxRounds: options.abandonRounds },
      () => (rssOpened = server.rss()),
    );
    const rssAfter = server.rss();
    log(`abandon: ${abandon.opened} opened, ${abandon.reaped} reaped`);
    const { log: _, ...settings } = options;
    return {
      options: settings,
      workload,
      burst,
      load,
      soak: { ...soak, rss: soakRss },
      abandon: { ...abandon, rssBefore, rssOpened, rssAfter },
      rss,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    clearInterval(sampler);
    await server.stop();
    await mock.close();
  }
}

/** What missed its target, in words; empty when everything passed. */
export function misses(report: LoadReport): string[] {
  const out: string[] = [];
  if (report.burst.errors > 0) {
    out.push(`burst: ${report.burst.errors} errors ${JSON.stringify(report.burst.errorKinds)}`);
  }
  for (const [name, phase] of [["load", report.load], ["soak", report.soak]] as const) {
    if (phase.errors > 0) out.push(`${name}: ${phase.errors} errors ${JSON.stringify(phase.errorKinds)}`);
    if (!(phase.p99 <= TARGET_P99_MS)) out.push(`${name}: p99 ${phase.p99.toFixed(2)} ms > ${TARGET_P99_MS} ms`);
  }
  if (!rssIsFlat(report.soak.rss)) out.push(`soak: RSS grew ×${report.soak.rss.ratio.toFixed(3)}`);
  const a = report.abandon;
  if (a.refused > 0) out.push(`abandon: ${a.refused} sessions refused`);
  if (a.reaped !== a.opened) out.push(`abandon: ${a.opened - a.reaped} of ${a.opened} sessions not reaped`);
  if (!a.reopened) out.push("abandon: no new session could be opened afterwards");
  return out;
}

export function formatReport(r: LoadReport): string {
  const mb = (n: number) => `${(n / MIB).toFixed(1)} MiB`;
  const phase = (name: string, p: PhaseResult) =>
    `${name}: ${p.calls} calls in ${p.wallS.toFixed(1)} s (${p.throughput.toFixed(0)}/s), p50 ${
      p.p50.toFixed(2)
    } ms, ` +
    `p99 ${p.p99.toFixed(2)} ms, max ${p.max.toFixed(1)} ms, ${p.errors} errors`;
  return [
    `workload (cached, cheap): ${r.workload.calls.map((c) => `${c.tool} ${c.warmMs.toFixed(1)} ms`).join(", ")}`,
    `left out: ${r.workload.excluded.map((e) => `${e.tool} (${e.reason})`).join("; ") || "none"}`,
    phase(`burst (closed loop) ${r.options.sessions} sessions × ${r.options.callsPerSession} calls`, r.burst),
    phase(
      `load ${r.options.sessions} sessions × ${r.options.callsPerSession} calls at ${r.options.perSessionRate}/s each`,
      r.load,
    ),
    phase(
      `soak ${r.options.soakRate}/s over ${r.options.soakSessions} sessions for ${r.options.soakSeconds} s`,
      r.soak,
    ) +
    `, ${r.soak.skipped} skipped (in-flight cap)`,
    `soak RSS: ${mb(r.soak.rss.first)} → ${mb(r.soak.rss.last)} (×${r.soak.rss.ratio.toFixed(3)})`,
    `abandon: ${r.abandon.opened} sessions opened (${r.abandon.refused} refused), ${r.abandon.reaped} reaped after ` +
    `${r.abandon.waitedS.toFixed(1)} s in ${r.abandon.rounds} round(s) (idle timeout ${r.options.idleMs} ms); ` +
    `RSS ${mb(r.abandon.rssBefore)} → ` +
    `${mb(r.abandon.rssOpened)} opened → ${mb(r.abandon.rssAfter)} after reaping; new session: ${r.abandon.reopened}`,
    `RSS over time (s: MiB): ${
      r.rss.filter((_, i) => i % Math.max(1, Math.ceil(r.rss.length / 30)) === 0)
        .map((s) => `${s.t.toFixed(0)}:${(s.bytes / MIB).toFixed(0)}`).join(" ")
    }`,
    `total ${r.seconds.toFixed(1)} s`,
  ].join("\n");
}

function parseArgs(args: string[]): { options: LoadTestOptions; json?: string } {
  let options = { ...FULL };
  let json: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const num = () => {
      const n = Number(args[++i]);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${arg} needs a number`);
      return n;
    };
    if (arg === "--quick") options = { ...options, ...QUICK };
    else if (arg === "--ci") options = { ...options, ...CI };
    else if (arg === "--soak-seconds") options.soakSeconds = Math.min(num(), 3600);
    else if (arg === "--sessions") options.sessions = Math.min(num(), 500);
    else if (arg === "--calls") options.callsPerSession = Math.min(num(), 10_000);
    else if (arg === "--abandon") options.abandon = Math.min(num(), 10_000);
    else if (arg === "--json") json = args[++i];
    else {throw new Error(
        `unknown argument ${arg}; use --quick, --ci, --soak-seconds N, --sessions N, --calls N, --abandon N, --json FILE`,
      );}
  }
  return { options, json };
}

if (import.meta.main) {
  const { options, json } = parseArgs(Deno.args);
  const report = await runLoadTest({ ...options, log: (l) => console.error(l) });
  console.log(formatReport(report));
  if (json) await Deno.writeTextFile(json, JSON.stringify(report, null, 2));
  const missed = misses(report);
  for (const m of missed) console.log(`MISSED: ${m}`);
  Deno.exit(missed.length ? 1 : 0);
}
