/** Waiting rules between attempts: Retry-After, exponential back-off with full jitter, cool-down length. */

/** A number in [0, 1): `Math.random` in production, a script in tests. */
export type Random = () => number;

/**
 * Milliseconds a `Retry-After` header asks for (delta-seconds or HTTP-date), or undefined.
 *
 * @example
 * parseRetryAfter("2", 0) // 2000
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP-date names a month ("Wed, 21 Oct 2015 07:28:00 GMT"); without that guard Date.parse reads "-5" as a year.
  const date = /[a-z]{3}/i.test(trimmed) ? Date.parse(trimmed) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffPolicy {
  /** First back-off step. */
  backoffBaseMs: number;
  /** Ceiling of one back-off step. */
  backoffMaxMs: number;
}

/**
 * "Full jitter" back-off before retry number `retry` (1-based): uniform in [0, min(max, base·2^(retry−1))).
 * Spreading retries over the whole window is what keeps independent clients from retrying in lockstep.
 */
export function fullJitterMs(retry: number, policy: BackoffPolicy, random: Random): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Length of the shared cool-down after the `streak`-th consecutive throttle signal (1-based) when the
 * upstream gave no Retry-After: base·2^(streak−1), capped. No jitter: it gates one shared FIFO queue,
 * which already spaces the restart.
 */
export function cooldownMs(streak: number, policy: BackoffPolicy): number {
  return Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, streak - 1));
}
