/**
 * Simulated time, for running the real runtime against the in-process mock upstream deterministically:
 * time stands still while code runs and jumps to the next sleeper only when nothing else can happen —
 * no hold open (the mock holds the clock while it reads fixtures) and several event-loop turns in a row
 * without activity (a sleep, a wake-up, a body chunk delivered by the mock). A 30 s upstream timeout then fires exactly when a stalled answer is 30 s late,
 * never because the machine was slow; back-off, pacing and cool-downs cost no real time.
 *
 * @example
 * const clock = new SimClock();
 * const result = await clock.run(client.callTool({ name: "search_genes", arguments: { query: "BRCA1" } }));
 */
import type { Clock } from "../../src/core/clock.ts";

interface Sleeper {
  at: number;
  seq: number;
  wake: () => void;
}

/** Quiet event-loop turns before time may jump (microtask chains finish within one). */
const QUIET_TURNS = 8;

export class SimClock implements Clock {
  #now: number;
  #sleepers: Sleeper[] = [];
  #seq = 0;
  #holds = 0;
  /** Bumped by every sleep, wake-up and released hold: "something happened". */
  #activity = 0;
  #running = 0;
  #driver: Promise<void> | undefined;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#activity++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        this.#activity++;
        reject(signal!.reason);
      };
      const sleeper: Sleeper = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.#sleepers.push(sleeper);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Marks progress the clock cannot see otherwise (a body chunk delivered): time stays still while
   * work keeps making progress, even when each step takes an event-loop turn.
   */
  progress(): void {
    this.#activity++;
  }

  /** Keeps time still until `work` settles: real work (file reads) the clock cannot otherwise see. */
  async hold<T>(work: Promise<T>): Promise<T> {
    this.#holds++;
    try {
      return await work;
    } finally {
      this.#holds--;
      this.#activity++;
    }
  }

  /** Awaits `work`, moving time forward whenever everything else waits for it. Calls may overlap. */
  async run<T>(work: Promise<T>): Promise<T> {
    this.#running++;
    this.#driver ??= this.#drive();
    try {
      return await work;
    } finally {
      this.#running--;
    }
  }

  async #drive(): Promise<void> {
    const turn = eventLoopTurns();
    try {
      while (this.#running > 0) {
        let quiet = 0;
        while (quiet < QUIET_TURNS && this.#running > 0) {
          const before = this.#activity;
          await turn.next();
          quiet = this.#holds === 0 && this.#activity === before ? quiet + 1 : 0;
        }
        if (this.#running === 0) break;
        // Nothing asleep: the work waits on something outside the clock (a worker, a real socket).
        if (this.#sleepers.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        else this.#wakeNext();
      }
    } finally {
      turn.close();
      this.#driver = undefined;
    }
  }

  /** Jumps to the earliest sleeper and wakes every sleeper due then, in order. */
  #wakeNext(): void {
    this.#sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const at = this.#sleepers[0].at;
    this.#now = Math.max(this.#now, at);
    const due = this.#sleepers.filter((s) => s.at <= at);
    this.#sleepers = this.#sleepers.filter((s) => s.at > at);
    this.#activity++;
    for (const s of due) s.wake();
  }
}

/**
 * Yields one event-loop turn at a time through a MessageChannel: unlike nested setTimeout(0), which
 * browsers and Deno clamp to 4 ms, a message costs microseconds, and I/O completions still run between.
 */
function eventLoopTurns(): { next(): Promise<void>; close(): void } {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return {
    next: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        channel.port2.postMessage(0);
      }),
    close() {
      channel.port1.close();
      channel.port2.close();
    },
  };
}
