/**
 * The three phases of the load test, each bounded in count and in time:
 * - load: N sessions at once, each making M calls back to back;
 * - soak: a steady call rate spread over a few sessions for a fixed time (open loop, in-flight capped);
 * - abandon: many sessions opened and left, which the idle timeout must reap.
 */
import { McpHttpSession } from "./mcp_session.ts";
import { type LatencySummary, summarize } from "./stats.ts";
import type { WorkCall } from "./workload.ts";

export interface PhaseResult extends LatencySummary {
  wallS: number;
  /** Distinct error texts with their counts. */
  errorKinds: Record<string, number>;
}

function collector() {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  return {
    add(r: { ms: number; ok: boolean; error?: string }) {
      latencies.push(r.ms);
      if (!r.ok) {
        errors++;
        const kind = (r.error ?? "error").slice(0, 120);
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      }
    },
    result(wallMs: number): PhaseResult {
      return { ...summarize(latencies, errors, wallMs), wallS: wallMs / 1000, errorKinds };
    },
  };
}

/**
 * N sessions at once, M calls each. Closed loop (`perSessionRate` unset): each session calls again as
 * soon as it has its answer, so N calls are always in flight and latency includes queueing (Little's law:
 * latency ≈ N / throughput). Paced: each session calls at `perSessionRate` per second, sessions staggered.
 */
export async function runLoad(
  base: string,
  calls: readonly WorkCall[],
  options: { sessions: number; callsPerSession: number; maxSeconds: number; perSessionRate?: number },
): Promise<PhaseResult> {
  const sessions = await Promise.all(Array.from({ length: options.sessions }, () => McpHttpSession.open(base)));
  const stats = collector();
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  const interval = options.perSessionRate ? 1000 / options.perSessionRate : 0;
  try {
    await Promise.all(sessions.map(async (session, s) => {
      const offset = (s * interval) / sessions.length;
      for (let i = 0; i < options.callsPerSession && performance.now() < deadline; i++) {
        const wait = started + offset + i * interval - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const call = calls[(s + i) % calls.length];
        stats.add(await session.call(call.tool, call.args));
      }
    }));
  } finally {
    await Promise.all(sessions.map((s) => s.close().catch(() => {})));
  }
  return stats.result(performance.now() - started);
}

export async function runSoak(
  base: string,
  calls: readonly WorkCall[],
  options: { sessions: number; ratePerSecond: number; seconds: number },
): Promise<PhaseResult & { skipped: number }> {
  const sessions = await Promise.all(Array.from({ length: options.sessions }, () => McpHttpSession.open(base)));
  const stats = collector();
  const maxInFlight = options.sessions * 4;
  const total = Math.round(options.ratePerSecond * options.seconds);
  const interval = 1000 / options.ratePerSecond;
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  const started = performance.now();
  try {
    for (let i = 0; i < total; i++) {
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (pending.size >= maxInFlight) {
        skipped++;
        continue;
      }
      const call = calls[i % calls.length];
      const p: Promise<void> = sessions[i % sessions.length].call(call.tool, call.args).then((r) => {
        stats.add(r);
        pending.delete(p);
      });
      pending.add(p);
    }
    await Promise.all(pending);
  } finally {
    await Promise.all(sessions.map((s) => s.close().catch(() => {})));
  }
  return { ...stats.result(performance.now() - started), skipped };
}

export interface AbandonResult {
  opened: number;
  refused: number;
  /** Sessions answering 404 (gone) when probed after the idle timeout and one reaper period. */
  reaped: number;
  waitedS: number;
  /** Probe rounds it took: 1 unless the server was too busy to reap in time (then a probe refreshed some). */
  rounds: number;
  /** A fresh session could be opened afterwards. */
  reopened: boolean;
}

/**
 * Opens `count` sessions and leaves them. Probing a live session would refresh it, so nothing is sent
 * until the idle timeout plus one reaper period (the handler reaps every min(60 s, idle timeout)) have
 * passed; then every session is probed once. A session a busy server had not reaped yet was refreshed by
 * its probe, so the survivors get another full wait, up to `maxRounds` rounds: the outcome says whether
 * sessions are reaped, not how fast a loaded machine gets to it.
 */
export async function runAbandon(
  base: string,
  options: { count: number; idleMs: number; concurrency: number; maxRounds?: number },
  onOpened?: () => void,
): Promise<AbandonResult> {
  const sessions: McpHttpSession[] = [];
  let refused = 0;
  let next = 0;
  await Promise.all(Array.from({ length: options.concurrency }, async () => {
    while (next < options.count) {
      next++;
      try {
        sessions.push(await McpHttpSession.open(base));
      } catch {
        refused++;
      }
    }
  }));
  onOpened?.();
  const waitMs = options.idleMs + Math.min(60_000, options.idleMs) + 500;
  let live = sessions;
  let rounds = 0;
  while (live.length > 0 && rounds < (options.maxRounds ?? 1)) {
    rounds++;
    await new Promise((r) => setTimeout(r, waitMs));
    const survivors: McpHttpSession[] = [];
    for (let i = 0; i < live.length; i += options.concurrency) {
      const batch = live.slice(i, i + options.concurrency);
      const statuses = await Promise.all(batch.map((s) => s.probe()));
      survivors.push(...batch.filter((_, j) => statuses[j] !== 404));
    }
    live = survivors;
  }
  let reopened = false;
  try {
    await (await McpHttpSession.open(base)).close();
    reopened = true;
  } catch { /* reported as reopened: false */ }
  return {
    opened: sessions.length,
    refused,
    reaped: sessions.length - live.length,
    waitedS: (rounds * waitMs) / 1000,
    rounds,
    reopened,
  };
}
