/**
 * The contract between bench/main.ts and each `bench/*_bench.ts` module: export
 * `async function run(options: BenchOptions): Promise<BenchRow[]>`.
 */

/** One measured number, with what it should be and whether it is. */
export interface BenchRow {
  /** What was measured, e.g. `pacing: 60 calls @ 3 req/s, wall time`. */
  name: string;
  value: number;
  /** `s`, `ms`, `µs`, `%`, `requests`, `violations`, ... */
  unit: string;
  /** The goal in words, e.g. `≤ 20.65 s (ideal +5 %)` or `= 0`. */
  target?: string;
  /** Whether the goal was met; undefined for purely informative rows. A false fails `deno task bench`. */
  pass?: boolean;
  /** How to reproduce this row alone, e.g. `deno task bench pacing`. */
  command?: string;
  notes?: string;
}

export interface BenchOptions {
  /** The CI variant: smaller bursts, same checks. */
  quick: boolean;
}

export interface BenchModule {
  run(options: BenchOptions): Promise<BenchRow[]>;
}
