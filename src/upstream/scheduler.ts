/**
 * Pacing for one upstream: a FIFO queue of permits. A permit is granted only when every gate is open —
 * the minimum spacing since the previous start (stretched by a slow-down factor when the upstream signals
 * pressure), the per-minute window, the concurrency limit and the shared cool-down after a 429. Because
 * retries ask for a new permit like everyone else, a retry never jumps the queue and a 429 never turns
 * into a thundering herd: the whole queue waits out the cool-down, then resumes at the normal spacing.
 *
 * Spacing is kept at the upstream, not just at our end: with a safety margin (published rate + m %), the
 * jitter between our send and its arrival cannot squeeze two arrivals closer than the published limit,
 * and a cold start (the first request after an idle spell, which pays for DNS, a new connection and TLS,
 * or a fresh process's first-use costs) holds the queue until that request is answered — only then is
 * its arrival time known to lie in the past — and the spacing counts from the answer. Likewise a request
 * answered much later than the fastest recent answer most likely arrived late (a stall on either side):
 * when the lateness is more than the margin absorbs, what is not yet granted moves back by all of it.
 */
import { type Clock, TIMER_STOPPED } from "../core/clock.ts";
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
/** A gate idle for this long is cold again: pooled connections are gone by then. */
export const COLD_AFTER_MS = 30_000;
/** A cold request unanswered after this long no longer holds the queue (its arrival is long past by then). */
export const COLD_HOLD_MAX_MS = 2_000;
/** Answer latencies remembered for the "fastest recent answer" a late one is measured against. */
const LATENCY_SAMPLES = 16;

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
  readonly #onLate?: (arrivedAt: number) => void;
  /** While the first request after an idle spell is unanswered: until when it holds the queue at most. */
  #coldHoldUntil?: number;
  /** Grants so far (a permit's index tells how many were granted after it). */
  #grants = 0;
  /** Recent grant → answer-head latencies. */
  #latencies: number[] = [];

  /** @param onLate told the estimated arrival of a late request (a shared gate passes it on). */
  constructor(options: SchedulerOptions, clock: Clock, onLate?: (arrivedAt: number) => void) {
    this.#options = options;
    this.#clock = clock;
    this.#onLate = onLate;
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
   * Lateness one arrival may have before it can push a published window over its limit: what the margin
   * adds over one window (a second, or the interval when longer).
   */
  get lateSlackMs(): number {
    return Math.max(1000, this.#options.intervalMs) * this.#marginPct / 100;
  }

  /** The safety measures (margin and cold-start hold) apply to published rates, not to exact settings. */
  get keepsMargin(): boolean {
    return this.#marginPct > 0 && this.#options.intervalMs > 0;
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
    if (this.#coldHoldUntil !== undefined) at = Math.max(at, this.#coldHoldUntil + this.effectiveIntervalMs);
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
    const cold = this.keepsMargin && this.#inFlight === 0 && now - this.#lastGrant >= COLD_AFTER_MS;
    if (cold) this.#coldHoldUntil = now + COLD_HOLD_MAX_MS;
    this.#inFlight++;
    this.#lastGrant = now;
    const index = this.#grants++;
    if (this.#options.perMinute) this.#window.push(now);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      if (cold && this.#coldHoldUntil !== undefined) {
        // Answered: its arrival lies in the past, so the spacing to the next request counts from here.
        const releasedAt = this.#clock.now();
        this.#lastGrant = Math.max(this.#lastGrant, Math.min(releasedAt, this.#coldHoldUntil));
        this.#coldHoldUntil = undefined;
      }
      this.#pump();
    };
    let answered = false;
    const onAnswer = () => {
      if (answered) return;
      answered = true;
      this.#answered(now, index);
    };
    const sent = () => this.#sent(now, index);
    waiter.resolve({ grantedAt: now, cold, answered: onAnswer, sent, release, [Symbol.dispose]: release });
  }

  /**
   * Records an answer's latency; when it exceeds the fastest recent one by more than the margin absorbs,
   * the request arrived about that much late, and every request not yet granted moves back by as much.
   */
  #answered(grantedAt: number, index: number): void {
    if (!this.keepsMargin) return;
    const latency = this.#clock.now() - grantedAt;
    const fastest = this.#latencies.length ? Math.min(...this.#latencies) : latency;
    this.#latencies.push(latency);
    if (this.#latencies.length > LATENCY_SAMPLES) this.#latencies.shift();
    // Within the slack it is ordinary jitter; beyond, the whole delay counts (our estimate of when it
    // arrived is rough: the answer's own way back may have been quick or slow).
    const late = latency - fastest;
    if (late <= this.lateSlackMs) return;
    this.#onLate?.(grantedAt + late);
    const after = this.#grants - index - 1;
    const shifted = grantedAt + late + this.effectiveIntervalMs * after;
    if (shifted <= this.#lastGrant) return;
    this.#lastGrant = shifted;
    this.#pump();
  }

  /**
   * The request granted at `grantedAt` leaves now: when that is later than its grant (the event loop
   * stalled, or a shared slot was waited for), the next grant counts its spacing from now, not from the
   * grant, and those granted since move back behind it.
   */
  #sent(grantedAt: number, index: number): void {
    const sentAt = this.#clock.now();
    if (sentAt <= grantedAt) return;
    const shifted = sentAt + this.effectiveIntervalMs * (this.#grants - index - 1);
    if (shifted <= this.#lastGrant) return;
    this.#lastGrant = shifted;
    this.#pump();
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
    this.#timer?.controller.abort(TIMER_STOPPED);
    this.#timer = undefined;
  }
}
