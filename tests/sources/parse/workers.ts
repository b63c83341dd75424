/**
 * Test workers for the parse host: ones that fail in the ways a real worker can (crash mid-parse, never
 * answer, never start), each a web Worker the host drives through its `spawn` option.
 */

/** A worker module URL for `kind` (tests/sources/parse/<kind>_worker.ts). */
export function testWorker(kind: "crashing" | "silent"): Worker {
  return new Worker(new URL(`./${kind}_worker.ts`, import.meta.url), { type: "module" });
}

/** A spawn that starts `first` for the first worker and the real parse worker after it, counting starts. */
export function spawnSequence(...first: (() => Worker)[]): { spawn: () => Worker; starts: () => number } {
  let started = 0;
  return {
    spawn() {
      const next = first[started++];
      return next ? next() : new Worker(new URL("../../../src/sources/parse_worker.ts", import.meta.url), {
        type: "module",
      });
    },
    starts: () => started,
  };
}
