/**
 * Pacing for one upstream: a FIFO queue of permits. A permit is granted only when every gate is open —
 * the minimum spacing since the previous start (stretched by a slow-down factor when the upstream signals
 * pressure), the per-minute window, the concurrency limit and the shared cool-down after a 429. Because
 * retries ask for a new permit like everyone else, a retry never jumps the queue and a 429 never turns
 * into a thundering herd: the whole queue waits out the cool-down, then resumes at the normal spacing.
 */
import type { Clock } from "../core/clock.ts";
import { CooldownError, type GateOptions, type Permit, type PermitGate } from "./permits.ts";

export { CooldownError, type Permit };
/** Options of a {@link Scheduler}: the gate options of src/upstream/permits.ts. */
export type SchedulerOptions = GateOptions;

interface Waiter {
  resolve(permit: Permit): void;
  reject(reason: unknown): void;
  detach(): void;
}

const MINUTE = 60_000;

export class Scheduler implements PermitGate {
  readonly #clock: Clock;
  readonly #options: SchedulerOptions;
  #queue: Waiter[] = [];
  #inFlight = 0;
  #lastGrant = -Infinity;
  /** Grant times inside the current 60 s window (only kept when perMinute is set). */
  #window: number[] = [];
  #cooldownUntil = -Infinity;
  #slowdown = 1;
  #timer?: { at: number; controller: AbortController };

  constructor(options: SchedulerOptions, clock: Clock) {
    this.#options = options;
    this.#clock = clock;
  }

  get name(): string {
    return this.#options.name;
  }
  /** Requests waiting for a permit. */
  get queueLength(): number {
    return this.#queue.length;
  }
  /** Permits currently held. */
  get inFlight(): number {
    return this.#inFlight;
  }
  /** End of the shared cool-down, when one is running. */
  get cooldownUntil(): number | undefined {
    return this.#cooldownUntil > this.#clock.now() ? this.#cooldownUntil : undefined;
  }
  /** Current stretch of the spacing (1 = normal). */
  get slowdown(): number {
    return this.#slowdown;
  }
  /** Spacing in force now. */
  get effectiveIntervalMs(): number {
    return Math.ceil(this.#options.intervalMs * (100 + this.#marginPct) / 100) * this.#slowdown;
  }

  /** The per-minute budget after the margin (at least 1). */
  get effectivePerMinute(): number | undefined {
    const perMinute = this.#options.perMinute;
    return perMinute ? Math.max(1, Math.floor(perMinute * 100 / (100 + this.#marginPct))) : undefined;
  }

  get #marginPct(): number {
    return Math.max(0, this.#options.marginPct ?? 0);
  }

  /**
   * Waits for a permit, first come first served. Rejects with the signal's reason when it aborts (the
   * waiter leaves the queue) and with {@link CooldownError} when the upstream cools down for too long.
   */
  acquire(signal?: AbortSignal): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const blocked = this.#cooldownTooLong();
    if (blocked) return Promise.reject(blocked);
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal!.reason);
        this.#pump();
      };
      const waiter: Waiter = {
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /**
   * An endless async iterator of permits: each `next()` queues for a new one. The retry loop reads as
   * "for every permit, try once", which makes "every retry takes a new permit" true by construction.
   *
   * @example
   * for await (const permit of scheduler.permits(signal)) {
   *   try { if (await tryOnce()) break; } finally { permit.release(); }
   * }
   */
  async *permits(signal?: AbortSignal): AsyncGenerator<Permit, void, undefined> {
    for (;;) yield await this.acquire(signal);
  }

  /**
   * Closes the gate for everyone for `ms` (extends, never shortens, a running cool-down). Waiters that
   * would have to wait longer than `maxCooldownWaitMs` are failed at once.
   */
  coolDown(ms: number): void {
    this.#cooldownUntil = Math.max(this.#cooldownUntil, this.#clock.now() + Math.max(0, ms));
    const blocked = this.#cooldownTooLong();
    if (blocked) {
      const waiters = this.#queue;
      this.#queue = [];
      for (const w of waiters) {
        w.detach();
        w.reject(blocked);
      }
    }
    this.#pump();
  }

  /** Stretches the spacing by `factor` (≥ 1) until set back to 1; used when an upstream reports pressure. */
  setSlowdown(factor: number): void {
    const next = Math.max(1, factor);
    if (next === this.#slowdown) return;
    this.#slowdown = next;
    this.#pump();
  }

  #cooldownTooLong(): CooldownError | undefined {
    const remaining = this.#cooldownUntil - this.#clock.now();
    if (remaining <= this.#options.maxCooldownWaitMs) return undefined;
    return new CooldownError(this.#options.name, this.#cooldownUntil, remaining);
  }

  /** Earliest time the head of the queue may start, ignoring concurrency. */
  #readyAt(now: number): number {
    let at = Math.max(this.#lastGrant + this.effectiveIntervalMs, this.#cooldownUntil);
    const perMinute = this.effectivePerMinute;
    if (perMinute) {
      while (this.#window.length && this.#window[0] <= now - MINUTE) this.#window.shift();
      if (this.#window.length >= perMinute) at = Math.max(at, this.#window[this.#window.length - perMinute] + MINUTE);
    }
    return at;
  }

  /** Grants permits while every gate is open; otherwise arms one timer for the moment the gates open. */
  #pump(): void {
    while (this.#queue.length > 0 && this.#inFlight < this.#options.concurrency) {
      const now = this.#clock.now();
      const at = this.#readyAt(now);
      if (at > now) return this.#arm(at);
      this.#grant(this.#queue.shift()!, now);
    }
    this.#disarm();
  }

  #grant(waiter: Waiter, now: number): void {
    waiter.detach();
    this.#inFlight++;
    this.#lastGrant = now;
    if (this.#options.perMinute) this.#window.push(now);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      this.#pump();
    };
    waiter.resolve({ grantedAt: now, release, [Symbol.dispose]: release });
  }

  #arm(at: number): void {
    if (this.#timer?.at === at) return;
    this.#disarm();
    const controller = new AbortController();
    this.#timer = { at, controller };
    this.#clock.sleep(at - this.#clock.now(), controller.signal).then(
      () => {
        if (this.#timer?.controller !== controller) return;
        this.#timer = undefined;
        this.#pump();
      },
      () => {/* disarmed: a newer timer (or none) replaced this one */},
    );
  }

  #disarm(): void {
    this.#timer?.controller.abort();
    this.#timer = undefined;
  }
}
