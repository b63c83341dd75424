/** Time, injected: production uses the real clock, tests a {@link ManualClock} they advance themselves. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The reason a timer's sleep is stopped with when the work it bounded finished first. A plain value, so
 * stopping builds no DOMException (and its stack) on every call and every fetch.
 */
export const TIMER_STOPPED = "the work finished first";

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, Math.max(0, ms));
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};

/**
 * A clock that only moves when told. `advance(ms)` wakes every sleeper whose deadline has passed, in
 * deadline order, letting each run its continuation before the next wakes.
 */
export class ManualClock implements Clock {
  #now: number;
  #sleepers: { at: number; resolve: () => void; seq: number }[] = [];
  #seq = 0;
  constructor(start = 0) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal!.reason);
      };
      // Detach on wake-up, so a long-lived signal does not collect one listener per sleep.
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const sleeper = { at: this.#now + Math.max(0, ms), resolve: wake, seq: this.#seq++ };
      this.#sleepers.push(sleeper);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  /** Number of pending sleeps (handy to wait until code under test has reached a sleep). */
  get pending(): number {
    return this.#sleepers.length;
  }
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await flushMicrotasks();
      this.#sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#sleepers[0];
      if (!next || next.at > target) break;
      this.#sleepers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
    }
    this.#now = target;
    await flushMicrotasks();
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
