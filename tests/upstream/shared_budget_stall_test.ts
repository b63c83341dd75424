/**
 * The shared budget under stalls and contention, on one injected clock: an instance whose process stalls
 * between taking its slot and sending, while another instance keeps sending, must not land closer to the
 * other's requests than the spacing allows (it gives the slot up, or moves it, instead of sending late);
 * and losing the race for many slots in a row is another instance's progress, not a lost store, so the
 * budget stays shared instead of degrading to per-instance pacing.
 */
import assert from "node:assert/strict";
import { defaultRateRules, RateGate } from "../../scripts/mock_upstream/rate_gate.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { memoryLogger } from "../../src/core/log.ts";
import type { PermitGate } from "../../src/upstream/permits.ts";
import { type BudgetStore, sharedGates } from "../../src/upstream/shared_budget.ts";
import { drive } from "./helpers.ts";
import { MemoryBudgetStore } from "./memory_budget_store.ts";

const NCBI = { name: "ncbi-eutils", intervalMs: 334, marginPct: 10, concurrency: 3, maxCooldownWaitMs: 30_000 };
/** NCBI's spacing with the 10 % margin, and how late after its slot a request may leave (half the slack). */
const SPACING_MS = 368;
const STALE_AFTER_MS = 50;

/** One instance's handle on the shared store: its next commit lands at once, but answers `ms` later. */
class StallingView implements BudgetStore {
  stallNextCommitMs = 0;
  /** Every commit answers this much later (a store slow every time, not one stall). */
  slowCommitMs = 0;
  constructor(readonly store: BudgetStore, readonly clock: ManualClock) {}
  read(queue: string) {
    return this.store.read(queue);
  }
  async commit(...args: Parameters<BudgetStore["commit"]>) {
    const ok = await this.store.commit(...args);
    const stall = this.stallNextCommitMs + this.slowCommitMs;
    this.stallNextCommitMs = 0;
    if (stall) await this.clock.sleep(stall);
    return ok;
  }
}

interface Arrival {
  at: number;
  who: string;
  violation?: string;
}

/** Takes `count` permits one after another, each request arriving when sent and answered 30 ms later. */
async function send(gate: PermitGate, who: string, count: number, clock: ManualClock, log: Arrival[]) {
  const referee = sendReferee;
  const permits = gate.permits()[Symbol.asyncIterator]();
  for (let i = 0; i < count; i++) {
    const permit = (await permits.next()).value!;
    permit.sent?.();
    log.push({ at: clock.now(), who, violation: referee.arrive("ncbi-eutils", clock.now()) });
    await clock.sleep(30);
    referee.done("ncbi-eutils");
    permit.answered?.();
    permit.release();
  }
}
let sendReferee = new RateGate(defaultRateRules());

for (const stallMs of [200, 700, 1110, 2500]) {
  Deno.test(`a process stalled ${stallMs} ms between its slot and its send never lands within the other's spacing`, async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const store = new MemoryBudgetStore();
    const view = new StallingView(store, clock);
    sendReferee = new RateGate(defaultRateRules());
    const arrivals: Arrival[] = [];
    const logs = [memoryLogger(), memoryLogger()];
    const a = sharedGates({ store: view, log: logs[0] })(NCBI, clock);
    const b = sharedGates({ store, log: logs[1] })(NCBI, clock);
    // Both instances warm (a first request holds the budget until answered), then quiet for 3 s.
    await drive(clock, send(a, "a", 1, clock, arrivals), 10);
    await drive(clock, send(b, "b", 1, clock, arrivals), 10);
    await clock.advance(3000);
    // Instance a takes the next slot; its process stalls right after the commit, while b keeps sending.
    view.stallNextCommitMs = stallMs;
    await drive(clock, Promise.all([send(a, "a", 1, clock, arrivals), send(b, "b", 8, clock, arrivals)]), 100);

    assert.deepEqual(arrivals.filter((r) => r.violation), [], "no arrival over NCBI's 3 in any second");
    const gaps = arrivals.slice(1).map((r, i) => r.at - arrivals[i].at);
    assert.ok(
      Math.min(...gaps) >= SPACING_MS - STALE_AFTER_MS,
      `gaps ${gaps.join(", ")} ms (${
        arrivals.map((r) => r.who).join("")
      }): none below ${SPACING_MS} − ${STALE_AFTER_MS}`,
    );
    assert.equal(arrivals.length, 11, "every request was sent");
    assert.deepEqual(logs.flatMap((l) => l.records).filter((r) => r.level === "warning"), [], "no degraded budget");
  });
}

Deno.test("a store that answers every commit 80 ms late still hands out every slot, none sent late", async () => {
  const clock = new ManualClock(1_700_000_000_000);
  const store = new MemoryBudgetStore();
  const view = new StallingView(store, clock);
  view.slowCommitMs = 80;
  sendReferee = new RateGate(defaultRateRules());
  const arrivals: Arrival[] = [];
  const a = sharedGates({ store: view, log: memoryLogger() })(NCBI, clock);
  const b = sharedGates({ store, log: memoryLogger() })(NCBI, clock);
  let finished = false;
  Promise.all([send(a, "a", 6, clock, arrivals), send(b, "b", 6, clock, arrivals)]).then(() => (finished = true));
  // Twelve slots take ~4.4 s; a reservation that kept moving its claim without end would never finish.
  for (let step = 0; step < 600 && !finished; step++) await clock.advance(100);
  assert.ok(finished, `all sent within 60 s (${arrivals.length} of 12)`);
  assert.deepEqual(arrivals.filter((r) => r.violation), []);
  const gaps = arrivals.slice(1).map((r, i) => r.at - arrivals[i].at);
  assert.ok(Math.min(...gaps) >= SPACING_MS - STALE_AFTER_MS, `gaps ${gaps.join(", ")} ms`);
});

Deno.test("losing the race for 60 slots in a row is contention, not a lost store: the slot comes, still shared", async () => {
  const clock = new ManualClock(1_700_000_000_000);
  const store = new MemoryBudgetStore();
  let rivalSlots = 0;
  // Another instance commits each slot just before this one does (the loser re-reads and waits for the next).
  const losing: BudgetStore = {
    read: (queue) => store.read(queue),
    commit(queue, version, record) {
      if (rivalSlots < 60) {
        rivalSlots++;
        store.poke(queue, { ...record, next: clock.now() + SPACING_MS });
      }
      return store.commit(queue, version, record);
    },
  };
  const log = memoryLogger();
  const gate = sharedGates({ store: losing, log })(NCBI, clock);
  const start = clock.now();
  const permit = (await drive(clock, gate.permits()[Symbol.asyncIterator]().next(), 1000)).value!;
  permit.release();
  assert.equal(rivalSlots, 60);
  assert.deepEqual(log.records.filter((r) => r.level === "warning").map((r) => r.msg), [], "never degraded");
  assert.ok(permit.grantedAt >= start + 59 * SPACING_MS, "it waited behind the rival's 60 slots");
  assert.ok(store.peek("ncbi-eutils")!.next > permit.grantedAt, "and its slot is in the shared record");
});
