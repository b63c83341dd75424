/** Observability of the pipeline: last success and failure per queue, plus the scheduler's live state. */
import type { Clock } from "../core/clock.ts";
import type { PermitGate } from "./permits.ts";
import type { UpstreamStatus } from "./types.ts";

interface History {
  lastSuccessAt?: number;
  lastErrorAt?: number;
  lastError?: string;
}

export class StatusBoard {
  readonly #clock: Clock;
  readonly #history = new Map<string, History>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  success(key: string): void {
    this.#entry(key).lastSuccessAt = this.#clock.now();
  }

  /** Records a failed attempt; `what` must already be redacted. */
  failure(key: string, what: string): void {
    const entry = this.#entry(key);
    entry.lastErrorAt = this.#clock.now();
    entry.lastError = what;
  }

  /** One entry per known queue name (even if never used) and per scheduler created so far. */
  snapshot(names: readonly string[], schedulers: ReadonlyMap<string, PermitGate>): UpstreamStatus {
    const out: UpstreamStatus = {};
    for (const key of new Set([...names, ...schedulers.keys()])) {
      const history = this.#history.get(key) ?? {};
      const scheduler = schedulers.get(key);
      const entry: UpstreamStatus[string] = { queueLength: scheduler?.queueLength ?? 0 };
      if (history.lastSuccessAt !== undefined) entry.lastSuccessAt = iso(history.lastSuccessAt);
      if (history.lastErrorAt !== undefined) entry.lastErrorAt = iso(history.lastErrorAt);
      if (history.lastError) entry.lastError = history.lastError;
      if (scheduler) {
        entry.inFlight = scheduler.inFlight;
        const until = scheduler.cooldownUntil;
        if (until !== undefined) entry.cooldownUntil = iso(until);
        if (scheduler.slowdown !== 1) entry.slowdown = scheduler.slowdown;
      }
      out[key] = entry;
    }
    return out;
  }

  #entry(key: string): History {
    let entry = this.#history.get(key);
    if (!entry) this.#history.set(key, entry = {});
    return entry;
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
