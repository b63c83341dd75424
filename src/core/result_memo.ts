/**
 * Parse once: finished tool results kept for a short while and shared by identical calls in flight, so a
 * repeated call or fifty coalesced ones cost one parse, one schema check and one rendering instead of one
 * each. The upstream cache keeps raw bodies for longer; this layer keeps what was made of them.
 *
 * Only successes are kept or shared: an error (a cancellation, a deadline, an outage) stays the caller's
 * own, and a caller that was waiting for someone else's call that failed runs its own.
 */
import type { Clock } from "./clock.ts";
import { BoundedLru } from "./lru.ts";

/** A result that may be kept: anything but an error. */
export interface Memoizable {
  isError?: boolean;
}

export interface ResultMemoOptions {
  clock: Clock;
  /** How long a result is served again; shorter than every upstream's cache lifetime (15 min at least). */
  ttlMs?: number;
  /** Total characters of kept results (their JSON). */
  maxChars?: number;
}

/** Default lifetime: well below the shortest upstream cache lifetime (15 min). */
export const RESULT_TTL_MS = 5 * 60_000;

export class ResultMemo<R extends Memoizable> {
  readonly #done: BoundedLru<R>;
  readonly #inflight = new Map<string, Promise<R>>();
  readonly #ttlMs: number;

  constructor(options: ResultMemoOptions) {
    this.#ttlMs = options.ttlMs ?? RESULT_TTL_MS;
    const maxSize = options.maxChars ?? 32 * 1024 * 1024;
    this.#done = new BoundedLru<R>({ maxSize, maxEntrySize: maxSize / 4, maxEntries: 2_000, clock: options.clock });
  }

  /**
   * The kept result for `key`, else the result of an identical call in flight (when it succeeds), else
   * `make()`'s, kept if it succeeds and `keep` agrees. `signal` ends only this caller's wait for another call.
   */
  async run(
    key: string,
    make: () => Promise<R>,
    signal?: AbortSignal,
    keep: (result: R) => boolean = () => true,
  ): Promise<R> {
    const kept = this.#done.get(key);
    if (kept) return kept;
    const pending = this.#inflight.get(key);
    if (pending) {
      const shared = await untilAborted(pending, signal);
      if (shared && !shared.isError) return shared;
    }
    const mine = make();
    this.#inflight.set(key, mine);
    try {
      const result = await mine;
      if (!result.isError && keep(result)) {
        this.#done.set(key, result, { size: JSON.stringify(result).length, ttlMs: this.#ttlMs });
      }
      return result;
    } finally {
      if (this.#inflight.get(key) === mine) this.#inflight.delete(key);
    }
  }
}

/** `promise`'s value, or undefined once `signal` aborts (or if it rejects): the caller then goes its own way. */
async function untilAborted<R>(promise: Promise<R>, signal?: AbortSignal): Promise<R | undefined> {
  if (!signal) return await promise.catch(() => undefined);
  if (signal.aborted) return undefined;
  const aborted = Promise.withResolvers<undefined>();
  const onAbort = () => aborted.resolve(undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([promise.catch(() => undefined), aborted.promise]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** A key for arguments whatever their key order: `{a:1,b:2}` and `{b:2,a:1}` are the same call. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
