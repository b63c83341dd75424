/** Latency and memory arithmetic for the load report. */

/** Nearest-rank percentile of `values` (p in 0–100); NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface LatencySummary {
  calls: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** Calls per second over the phase's wall time. */
  throughput: number;
}

export function summarize(latencies: readonly number[], errors: number, wallMs: number): LatencySummary {
  return {
    calls: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length ? Math.max(...latencies) : NaN,
    throughput: latencies.length / (wallMs / 1000),
  };
}

/** One RSS reading, seconds since the run started. */
export interface RssSample {
  t: number;
  bytes: number;
}

/**
 * Growth of resident memory across a window: median of the last quarter of samples over the median of
 * the first quarter (medians, so one GC pause or burst does not decide it).
 */
export function rssGrowth(samples: readonly RssSample[]): { first: number; last: number; ratio: number } {
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const first = percentile(samples.slice(0, quarter).map((s) => s.bytes), 50);
  const last = percentile(samples.slice(-quarter).map((s) => s.bytes), 50);
  return { first, last, ratio: last / first };
}

export const MIB = 1024 * 1024;
