/**
 * One rate budget for several server processes: a {@link PermitGate} that, besides its in-process
 * queue, reserves every request's start slot in a shared store with an atomic check-and-commit, so all
 * instances together keep each upstream's published rate (with the safety margin). A throttle seen by
 * one instance cools every instance down. When the store fails the gate warns and paces this instance
 * alone until the store answers again: degraded, never unpaced.
 */
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/log.ts";
import { CooldownError, type GateFactory, type GateOptions, type Permit, type PermitGate } from "./permits.ts";
import { COLD_HOLD_MAX_MS, Scheduler } from "./scheduler.ts";

/** What the store keeps per queue: the next free start slot and what gates it. Times are epoch ms. */
export interface BudgetRecord {
  /** Earliest start of the next request, any instance. */
  next: number;
  /** Starts within the last 60 s (kept only for upstreams with a per-minute budget). */
  window: number[];
  /** End of the shared cool-down after a throttle. */
  cooldownUntil: number;
  /** Spacing factor an upstream's pressure signal asked for (1 = normal). */
  slowdown: number;
}

/** A versioned record: `version` is what a commit must still find for the write to succeed. */
export interface Versioned {
  record: BudgetRecord | undefined;
  version: string | null;
}

/** An atomic per-key store (Deno KV in production, a Map in tests). */
export interface BudgetStore {
  read(queue: string): Promise<Versioned>;
  /** Writes `record` only if the key is still at `version`; false when another instance got there first. */
  commit(queue: string, version: string | null, record: BudgetRecord): Promise<boolean>;
  close?(): void;
}

export interface SharedGateOptions {
  store: BudgetStore;
  log: Logger;
  /** How long a failed store is left alone before it is tried again. Default 30 s. */
  retryStoreAfterMs?: number;
}

/** How one queue's slots are spaced (the margin already applied). */
export interface SlotRule {
  spacingMs: number;
  /** This instance's slow-down factor; the larger of it and the record's applies. */
  slowdown: number;
  perMinute?: number;
  /** A shared cool-down longer than this fails the reservation with a CooldownError. */
  maxCooldownWaitMs: number;
  /**
   * For a cold request: how long its arrival is uncertain. The next slot (any instance) comes only after
   * that on top of the spacing, until {@link releaseHold} says the request was answered sooner.
   */
  holdMs?: number;
}

const EMPTY: BudgetRecord = { next: -Infinity, window: [], cooldownUntil: -Infinity, slowdown: 1 };

/**
 * Reserves the next start slot of `queue` for every instance sharing `store`: one optimistic transaction
 * (read, plan, commit if nobody else committed meanwhile), repeated under contention. Returns the slot
 * (epoch ms; wait until then to start), the `next` it left in the record, and the shared cool-down seen.
 *
 * @throws CooldownError when the shared cool-down lasts longer than `rule.maxCooldownWaitMs`.
 */
export async function reserveSlot(
  store: BudgetStore,
  queue: string,
  rule: SlotRule,
  clock: Clock,
): Promise<{ slot: number; next: number; cooldownUntil: number }> {
  for (let tries = 0; tries < MAX_COMMIT_TRIES; tries++) {
    const { record, version } = await store.read(queue);
    const now = clock.now();
    const current = record ?? EMPTY;
    if (current.cooldownUntil - now > rule.maxCooldownWaitMs) {
      throw new CooldownError(queue, current.cooldownUntil, current.cooldownUntil - now);
    }
    const spacing = rule.spacingMs * Math.max(rule.slowdown, current.slowdown);
    let slot = Math.max(now, current.next, current.cooldownUntil);
    let window: number[] = [];
    if (rule.perMinute) {
      window = current.window.filter((t) => t > slot - MINUTE);
      if (window.length >= rule.perMinute) slot = Math.max(slot, window[window.length - rule.perMinute] + MINUTE);
      window = [...window.filter((t) => t > slot - MINUTE), slot];
    }
    const next = slot + (rule.holdMs ?? 0) + spacing;
    if (await store.commit(queue, version, { ...current, next, window })) {
      return { slot, next, cooldownUntil: current.cooldownUntil };
    }
  }
  throw new Error(`no slot for ${queue} after ${MAX_COMMIT_TRIES} contended commits`);
}

/**
 * A cold request was answered at `answeredAt`: its arrival lies in the past, so the budget it held may
 * resume at `answeredAt + spacingMs` — if nobody reserved a slot behind the hold meanwhile (their slots
 * are promised and stay where they are).
 */
export async function releaseHold(
  store: BudgetStore,
  queue: string,
  held: { next: number; answeredAt: number; spacingMs: number },
): Promise<void> {
  for (let tries = 0; tries < MAX_COMMIT_TRIES; tries++) {
    const { record, version } = await store.read(queue);
    if (!record || record.next !== held.next) return;
    const next = Math.min(held.next, held.answeredAt + held.spacingMs);
    if (await store.commit(queue, version, { ...record, next })) return;
  }
}

/** Commit attempts under contention before the store counts as failing. */
const MAX_COMMIT_TRIES = 50;
const MINUTE = 60_000;

/**
 * Gates backed by one shared store.
 *
 * @example createPipeline({ ...deps, gates: sharedGates({ store: await kvBudgetStore(kv), log }) })
 */
export function sharedGates(options: SharedGateOptions): GateFactory {
  const health = new StoreHealth(options);
  return (gate, clock) => new SharedGate(gate, clock, options.store, health);
}

/** Whether the store works; one warning when it stops, one note when it is back. */
class StoreHealth {
  #downUntil = -Infinity;
  #warned = false;
  constructor(readonly options: SharedGateOptions) {}

  usable(now: number): boolean {
    return now >= this.#downUntil;
  }

  failed(now: number, queue: string, error: unknown): void {
    this.#downUntil = now + (this.options.retryStoreAfterMs ?? 30_000);
    if (this.#warned) return;
    this.#warned = true;
    this.options.log.warn("shared rate budget unavailable; pacing this instance alone until it is back", {
      queue,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  worked(): void {
    if (!this.#warned) return;
    this.#warned = false;
    this.options.log.info("shared rate budget is back");
  }
}

class SharedGate implements PermitGate {
  readonly #local: Scheduler;
  readonly #options: GateOptions;
  readonly #clock: Clock;
  readonly #store: BudgetStore;
  readonly #health: StoreHealth;
  #sharedCooldownUntil = -Infinity;
  #sharedSlowdown = 1;

  constructor(options: GateOptions, clock: Clock, store: BudgetStore, health: StoreHealth) {
    this.#options = options;
    this.#clock = clock;
    this.#store = store;
    this.#health = health;
    // The local queue keeps order, concurrency and the cold-start hold, and paces alone when the store fails.
    this.#local = new Scheduler(options, clock, (arrivedAt) => this.#lateArrival(arrivedAt));
  }

  get name(): string {
    return this.#options.name;
  }
  get queueLength(): number {
    return this.#local.queueLength;
  }
  get inFlight(): number {
    return this.#local.inFlight;
  }
  get slowdown(): number {
    return this.#local.slowdown;
  }
  get cooldownUntil(): number | undefined {
    const until = Math.max(this.#local.cooldownUntil ?? -Infinity, this.#sharedCooldownUntil);
    return until > this.#clock.now() ? until : undefined;
  }

  /**
   * A local permit, then a shared slot; the local permit is held while waiting for the slot. A cold
   * permit holds the shared budget until it is released (answered), at most 2 s.
   */
  async *permits(signal?: AbortSignal): AsyncGenerator<Permit, void, undefined> {
    for (;;) {
      const permit = await this.#local.acquire(signal);
      let held: { next: number } | undefined;
      try {
        held = await this.#waitForSharedSlot(permit.cold === true, signal);
      } catch (error) {
        permit.release();
        throw error;
      }
      yield held ? this.#releasingHold(permit, held.next) : permit;
    }
  }

  /** The permit, whose release also lets the shared budget resume from the answer. */
  #releasingHold(permit: Permit, next: number): Permit {
    const release = () => {
      permit.release();
      const held = { next, answeredAt: this.#clock.now(), spacingMs: this.#local.effectiveIntervalMs };
      releaseHold(this.#store, this.name, held).catch((error) =>
        this.#health.failed(this.#clock.now(), this.name, error)
      );
    };
    let done = false;
    const once = () => {
      if (!done) (done = true, release());
    };
    return {
      grantedAt: permit.grantedAt,
      cold: true,
      answered: () => permit.answered?.(),
      release: once,
      [Symbol.dispose]: once,
    };
  }

  coolDown(ms: number): void {
    this.#local.coolDown(ms);
    const until = this.#clock.now() + Math.max(0, ms);
    this.#sharedCooldownUntil = Math.max(this.#sharedCooldownUntil, until);
    this.#update((r) => ({ ...r, cooldownUntil: Math.max(r.cooldownUntil, until) }));
  }

  setSlowdown(factor: number): void {
    const next = Math.max(1, factor);
    this.#local.setSlowdown(next);
    if (next === this.#sharedSlowdown) return;
    this.#sharedSlowdown = next;
    this.#update((r) => ({ ...r, slowdown: next }));
  }

  /**
   * Reserves the next shared slot and sleeps until it; skipped (local pacing only) while the store fails.
   * Returns what a cold reservation left in the record, so its release can shorten the hold.
   */
  async #waitForSharedSlot(cold: boolean, signal?: AbortSignal): Promise<{ next: number } | undefined> {
    const now = this.#clock.now();
    if (!this.#health.usable(now)) return undefined;
    let reserved: { slot: number; next: number };
    try {
      reserved = await this.#reserve(cold);
      this.#health.worked();
    } catch (error) {
      if (error instanceof CooldownError) throw error;
      this.#health.failed(this.#clock.now(), this.name, error);
      return undefined;
    }
    const wait = reserved.slot - this.#clock.now();
    if (wait > 0) await this.#clock.sleep(wait, signal);
    else if (signal?.aborted) throw signal.reason;
    return cold ? { next: reserved.next } : undefined;
  }

  async #reserve(cold: boolean): Promise<{ slot: number; next: number }> {
    const local = this.#local;
    const { slot, next, cooldownUntil } = await reserveSlot(this.#store, this.name, {
      // The local spacing already carries this instance's slow-down; the record carries everyone's.
      spacingMs: local.effectiveIntervalMs / local.slowdown,
      slowdown: local.slowdown,
      perMinute: local.effectivePerMinute,
      maxCooldownWaitMs: this.#options.maxCooldownWaitMs,
      holdMs: cold ? COLD_HOLD_MAX_MS : 0,
    }, this.#clock);
    this.#sharedCooldownUntil = cooldownUntil;
    return { slot, next };
  }

  /** A request of this instance arrived late: no instance's next slot comes sooner than a spacing after it. */
  #lateArrival(arrivedAt: number): void {
    const atLeast = arrivedAt + this.#local.effectiveIntervalMs;
    this.#update((r) => r.next >= atLeast ? r : { ...r, next: atLeast });
  }

  /** Applies a change to the shared record in the background; a failure only degrades the gate. */
  #update(change: (record: BudgetRecord) => BudgetRecord): void {
    if (!this.#health.usable(this.#clock.now())) return;
    const attempt = async () => {
      for (let tries = 0; tries < MAX_COMMIT_TRIES; tries++) {
        const { record, version } = await this.#store.read(this.name);
        if (await this.#store.commit(this.name, version, change(record ?? EMPTY))) return;
      }
      throw new Error(`no update after ${MAX_COMMIT_TRIES} contended commits`);
    };
    attempt().catch((error) => this.#health.failed(this.#clock.now(), this.name, error));
  }
}
