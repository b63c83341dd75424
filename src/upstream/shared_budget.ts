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
import { COLD_AFTER_MS, COLD_HOLD_MAX_MS, Scheduler } from "./scheduler.ts";

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
   * Asked when the slot is taken: how long this request's arrival is uncertain (a cold start: the
   * instance's first send after an idle spell; else 0). The next slot (any instance) comes only after
   * that on top of the spacing, until {@link releaseHold} says the request was answered sooner.
   */
  holdMs?: () => number;
  /**
   * How late after its slot a request may still leave (half the slack the margin leaves). A reservation
   * whose commit came back later than this (a stalled process, a slow store) is moved to now or given up,
   * never sent late. Unset: no check (an exact rate without margin has no slack to keep).
   */
  staleAfterMs?: number;
}

const EMPTY: BudgetRecord = { next: -Infinity, window: [], cooldownUntil: -Infinity, slowdown: 1 };

/** Largest spacing factor a record may carry (a pressure signal's worst level is 8). */
export const MAX_SLOWDOWN = 16;
/**
 * Longest shared cool-down a record may carry, on read and on write; a longer Retry-After is cut to this.
 * Short (#35): any process with the KV file can write a record, and an hour-long one blocked an upstream.
 */
export const MAX_SHARED_COOLDOWN_MS = 5 * 60_000;
/** Clock difference between instances a record's times may show. */
const CLOCK_SKEW_MS = 1_000;
/** A wait longer than plain spacing (a cold hold, a cool-down) is re-checked this often: it may end early. */
export const HOLD_POLL_MS = 100;

/**
 * The record as it may be trusted: undefined or well-formed and within what the queue can explain. A
 * `next` slot further ahead than one cold hold plus the slowest spacing (and some clock skew) was never
 * written by a live instance — a poisoned or stale record — and would stall every instance; such a
 * record, or one of the wrong shape, is repaired, and `reason` says what was wrong.
 */
export function trustedRecord(
  record: unknown,
  now: number,
  spacingMs: number,
): { record: BudgetRecord; repaired?: string } {
  if (record === undefined || record === null) return { record: EMPTY };
  const r = record as Partial<Record<keyof BudgetRecord, unknown>>;
  const time = (v: unknown) => typeof v === "number" && !Number.isNaN(v) && v !== Infinity;
  if (
    !time(r.next) || !time(r.cooldownUntil) || typeof r.slowdown !== "number" || !(r.slowdown >= 1) ||
    !Array.isArray(r.window) || !r.window.every((t) => typeof t === "number" && Number.isFinite(t))
  ) {
    return { record: EMPTY, repaired: `malformed record ${JSON.stringify(record).slice(0, 200)}` };
  }
  const slowdown = Math.min(r.slowdown, MAX_SLOWDOWN);
  const nextAtMost = now + COLD_HOLD_MAX_MS + spacingMs * MAX_SLOWDOWN + CLOCK_SKEW_MS;
  const window = (r.window as number[]).filter((t) => t <= now + CLOCK_SKEW_MS);
  const cooldownUntil = Math.min(r.cooldownUntil as number, now + MAX_SHARED_COOLDOWN_MS);
  const trusted = { next: Math.min(r.next as number, nextAtMost), window, cooldownUntil, slowdown };
  const wrong = [
    (r.next as number) > nextAtMost &&
    `next slot ${Math.round(((r.next as number) - now) / 1000)} s ahead (at most ${
      Math.ceil((nextAtMost - now) / 1000)
    } s can be explained)`,
    slowdown !== r.slowdown && `slow-down ${r.slowdown} (at most ${MAX_SLOWDOWN})`,
    window.length !== r.window.length && "window times in the future",
    cooldownUntil !== r.cooldownUntil && `cool-down over ${MAX_SHARED_COOLDOWN_MS / 60_000} min`,
  ].filter(Boolean);
  if (wrong.length === 0) return { record: record as BudgetRecord };
  if ((r.next as number) > nextAtMost) trusted.next = now;
  return { record: trusted, repaired: wrong.join("; ") };
}

/**
 * Takes the next start slot of `queue` for every instance sharing `store`, just in time: it waits (re-reading
 * the record) until the slot is due, then commits `next` with an optimistic transaction (read, plan, commit if
 * nobody else committed meanwhile), so the spacing counts from when the request really leaves and a hold
 * released early lets everyone go early. A lost commit is another instance's progress, not a failing store:
 * only {@link MAX_COMMIT_TRIES} lost in a row, with no wait between them, count as one. Returns the slot
 * (≈ now), the `next` it left in the record and the shared cool-down seen.
 *
 * @throws CooldownError when the shared cool-down lasts longer than `rule.maxCooldownWaitMs`.
 */
export async function reserveSlot(
  store: BudgetStore,
  queue: string,
  rule: SlotRule,
  clock: Clock,
  options: { signal?: AbortSignal; onRepair?: (reason: string) => void } = {},
): Promise<{ slot: number; next: number; cooldownUntil: number; held: boolean }> {
  for (let conflicts = 0; conflicts < MAX_COMMIT_TRIES;) {
    const { record, version } = await store.read(queue);
    const now = clock.now();
    const trusted = trustedRecord(record, now, rule.spacingMs);
    const current = trusted.record;
    if (trusted.repaired) {
      options.onRepair?.(trusted.repaired);
      if (!await store.commit(queue, version, current)) conflicts++;
      continue;
    }
    if (current.cooldownUntil - now > rule.maxCooldownWaitMs) {
      throw new CooldownError(queue, current.cooldownUntil, current.cooldownUntil - now);
    }
    const spacing = rule.spacingMs * Math.max(rule.slowdown, current.slowdown);
    let slot = Math.max(now, current.next, current.cooldownUntil);
    let window = current.window.filter((t) => t > now - MINUTE);
    if (rule.perMinute && window.length >= rule.perMinute) {
      slot = Math.max(slot, window[window.length - rule.perMinute] + MINUTE);
    }
    if (slot > now) {
      const wait = slot - now;
      // A cold hold may be released early: re-read now and then instead of sleeping through it.
      const held = slot === current.next && wait > spacing;
      await clock.sleep(held ? Math.min(wait, HOLD_POLL_MS) : wait, options.signal);
      conflicts = 0;
      continue;
    }
    if (rule.perMinute) window = [...window, slot];
    const holdMs = rule.holdMs?.() ?? 0;
    const next = slot + holdMs + spacing;
    if (!await store.commit(queue, version, { ...current, next, window: rule.perMinute ? window : [] })) {
      conflicts++;
      continue;
    }
    const fresh = await freshen(store, queue, { slot, next, gapMs: holdMs + spacing }, rule.staleAfterMs, clock);
    // Stalled past the slot while another instance reserved the next one: queue again.
    if (fresh) return { ...fresh, cooldownUntil: current.cooldownUntil, held: holdMs > 0 };
  }
  throw new Error(`no slot for ${queue} after ${MAX_COMMIT_TRIES} contended commits in a row`);
}

/**
 * A reservation is kept only if the request can still leave on time. When the commit came back more than
 * `staleAfterMs` after the slot (a process stalled between planning and sending, a store slow to answer),
 * the request would reach the upstream that late, closer to the next instance's slot than the spacing
 * allows. If nobody has reserved since, the claim moves to now; should that commit come back late too (a
 * store that is slow every time, not one stall), the next move is padded by the lateness seen, so it
 * ends. If somebody has reserved since, the slot is given up (undefined) and the caller queues again.
 * Either way no request leaves later than `staleAfterMs` after the slot it holds.
 */
async function freshen(
  store: BudgetStore,
  queue: string,
  claim: { slot: number; next: number; gapMs: number },
  staleAfterMs: number | undefined,
  clock: Clock,
): Promise<{ slot: number; next: number } | undefined> {
  let { slot, next } = claim;
  if (staleAfterMs === undefined) return { slot, next };
  for (let pad = 0; clock.now() - slot > staleAfterMs;) {
    const started = clock.now();
    const { record, version } = await store.read(queue);
    if (!record || record.next !== next) return undefined;
    const moved = clock.now() + pad;
    // The slot just taken is the window's last start: it moves with the claim.
    const window = record.window.length ? [...record.window.slice(0, -1), moved] : record.window;
    if (!await store.commit(queue, version, { ...record, next: moved + claim.gapMs, window })) return undefined;
    [slot, next] = [moved, moved + claim.gapMs];
    // A further move, if this one came back late too, allows for as long as this one took.
    pad = clock.now() - started;
  }
  return { slot, next };
}

/**
 * A cold request was answered at `answeredAt`: its arrival lies in the past, so the budget it held may
 * resume at `answeredAt + spacingMs` — unless the record moved on meanwhile (a repair, a late arrival).
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
  readonly #repaired = new Set<string>();
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

  /** One warning per queue: a record was poisoned, stale or malformed, and has been repaired. */
  repaired(queue: string, reason: string): void {
    if (this.#repaired.has(queue)) return;
    this.#repaired.add(queue);
    this.options.log.warn("shared rate budget record repaired", { queue, reason });
  }

  worked(): void {
    if (!this.#warned) return;
    this.#warned = false;
    this.options.log.info("shared rate budget is back");
  }
}

/** A shared slot taken: when, what it left in the record, and whether it holds the budget (cold). */
interface Reserved {
  slot: number;
  next: number;
  held: boolean;
}

class SharedGate implements PermitGate {
  readonly #local: Scheduler;
  readonly #options: GateOptions;
  readonly #clock: Clock;
  readonly #store: BudgetStore;
  readonly #health: StoreHealth;
  #sharedCooldownUntil = -Infinity;
  #sharedSlowdown = 1;
  #releasing: Promise<void> = Promise.resolve();
  /** This instance's latest shared slot: a first send after an idle spell is cold. */
  #lastSlot = -Infinity;

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
      let reserved: Reserved | undefined;
      try {
        // A hold this gate is releasing is gone before the next slot is planned.
        await this.#releasing;
        reserved = await this.#waitForSharedSlot(signal);
      } catch (error) {
        permit.release();
        throw error;
      }
      yield this.#shared(permit, reserved);
    }
  }

  /**
   * The permit as the caller sees it: a late send pushes the shared record back too, and releasing a
   * cold permit lets the shared budget resume from the answer.
   */
  #shared(permit: Permit, reserved: Reserved | undefined): Permit {
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      permit.release();
      if (!reserved?.held) return;
      const held = { next: reserved.next, answeredAt: this.#clock.now(), spacingMs: this.#local.effectiveIntervalMs };
      this.#releasing = releaseHold(this.#store, this.name, held).catch((error) =>
        this.#health.failed(this.#clock.now(), this.name, error)
      );
    };
    return {
      grantedAt: reserved?.slot ?? permit.grantedAt,
      cold: reserved ? reserved.held : permit.cold,
      answered: () => permit.answered?.(),
      sent: () => {
        permit.sent?.();
        const now = this.#clock.now();
        // Left later than its slot (a stalled event loop): nobody's next slot comes sooner than a spacing after.
        if (reserved && now - reserved.slot > this.#local.lateSlackMs / 2) this.#lateArrival(now);
      },
      release,
      [Symbol.dispose]: release,
    };
  }

  coolDown(ms: number): void {
    this.#local.coolDown(ms);
    const until = this.#clock.now() + Math.min(Math.max(0, ms), MAX_SHARED_COOLDOWN_MS);
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
   * Waits for the next shared slot and takes it; skipped (local pacing only) while the store fails.
   * Returns the slot and what it left in the record, so a cold permit's release can shorten its hold.
   * A slot is cold when this instance has not sent for COLD_AFTER_MS: decided when the slot is taken,
   * since of several local permits waiting for slots, any one may leave first.
   */
  async #waitForSharedSlot(signal?: AbortSignal): Promise<Reserved | undefined> {
    if (!this.#health.usable(this.#clock.now())) return undefined;
    const local = this.#local;
    const holdMs = () =>
      this.#clock.now() - this.#lastSlot >= COLD_AFTER_MS && local.keepsMargin ? COLD_HOLD_MAX_MS : 0;
    try {
      const { slot, next, cooldownUntil, held } = await reserveSlot(
        this.#store,
        this.name,
        {
          // The local spacing already carries this instance's slow-down; the record carries everyone's.
          spacingMs: local.effectiveIntervalMs / local.slowdown,
          slowdown: local.slowdown,
          perMinute: local.effectivePerMinute,
          maxCooldownWaitMs: this.#options.maxCooldownWaitMs,
          holdMs,
          staleAfterMs: local.keepsMargin ? local.lateSlackMs / 2 : undefined,
        },
        this.#clock,
        { signal, onRepair: (reason) => this.#health.repaired(this.name, reason) },
      );
      this.#lastSlot = Math.max(this.#lastSlot, slot);
      this.#sharedCooldownUntil = cooldownUntil;
      this.#health.worked();
      return { slot, next, held };
    } catch (error) {
      if (error instanceof CooldownError || signal?.aborted) throw error;
      this.#health.failed(this.#clock.now(), this.name, error);
      return undefined;
    }
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
        const now = this.#clock.now();
        const current = trustedRecord(record, now, this.#local.effectiveIntervalMs).record;
        const changed = change(current);
        if (changed === current && record) return;
        if (await this.#store.commit(this.name, version, changed)) return;
      }
      throw new Error(`no update after ${MAX_COMMIT_TRIES} contended commits`);
    };
    attempt().catch((error) => this.#health.failed(this.#clock.now(), this.name, error));
  }
}
