import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { CooldownError, type Permit, Scheduler, type SchedulerOptions } from "../../src/upstream/scheduler.ts";

function scheduler(options: Partial<SchedulerOptions> = {}, clock = new ManualClock(0)) {
  const s = new Scheduler({
    name: "test",
    intervalMs: 334,
    concurrency: 10,
    maxCooldownWaitMs: 60_000,
    ...options,
  }, clock);
  return { s, clock };
}

/** Starts `n` acquisitions, each recording its grant time and releasing at once (unless `hold`). */
function burst(s: Scheduler, clock: ManualClock, n: number, hold = false) {
  const grants: { id: number; at: number; permit: Permit }[] = [];
  const done = Array.from({ length: n }, (_, id) =>
    s.acquire().then((permit) => {
      grants.push({ id, at: clock.now(), permit });
      if (!hold) permit.release();
    }));
  return { grants, done };
}

Deno.test("scheduler spaces a burst at the policy interval, first come first served", async () => {
  const { s, clock } = scheduler();
  const { grants } = burst(s, clock, 6);
  await clock.advance(0);
  assert.equal(grants.length, 1, "only the first permit is immediate");
  assert.equal(s.queueLength, 5);
  await clock.advance(2000);
  assert.deepEqual(grants.map((g) => g.at), [0, 334, 668, 1002, 1336, 1670]);
  assert.deepEqual(grants.map((g) => g.id), [0, 1, 2, 3, 4, 5]);
  assert.equal(s.queueLength, 0);
});

Deno.test("scheduler lets a request through at once after an idle period", async () => {
  const { s, clock } = scheduler();
  (await s.acquire()).release();
  await clock.advance(5000);
  const permit = await s.acquire();
  assert.equal(permit.grantedAt, 5000);
});

Deno.test("scheduler holds at most `concurrency` permits; a release lets the next one start", async () => {
  const { s, clock } = scheduler({ intervalMs: 0, concurrency: 2 });
  const { grants } = burst(s, clock, 4, true);
  await clock.advance(0);
  assert.equal(grants.length, 2);
  assert.equal(s.inFlight, 2);
  await clock.advance(10_000);
  assert.equal(grants.length, 2, "time alone does not free a slot");
  grants[0].permit.release();
  grants[0].permit.release(); // releasing twice frees one slot, not two
  await clock.advance(0);
  assert.equal(grants.length, 3);
  assert.equal(grants[2].id, 2);
  assert.equal(s.inFlight, 2);
});

Deno.test("scheduler enforces the per-minute window on top of the spacing", async () => {
  const { s, clock } = scheduler({ intervalMs: 100, perMinute: 5 });
  const { grants } = burst(s, clock, 7);
  await clock.advance(70_000);
  assert.deepEqual(grants.map((g) => g.at), [0, 100, 200, 300, 400, 60_000, 60_100]);
});

Deno.test("a safety margin stretches the spacing and shrinks the per-minute budget by the same share", async () => {
  const { s, clock } = scheduler({ intervalMs: 100, perMinute: 11, marginPct: 10 });
  assert.equal(s.effectiveIntervalMs, 110);
  assert.equal(s.effectivePerMinute, 10);
  const { grants } = burst(s, clock, 11);
  await clock.advance(70_000);
  assert.deepEqual(grants.map((g) => g.at), [0, 110, 220, 330, 440, 550, 660, 770, 880, 990, 60_000]);
});

Deno.test("a cool-down blocks every queued request, then the queue resumes at the normal spacing", async () => {
  const { s, clock } = scheduler({ intervalMs: 100 });
  const { grants } = burst(s, clock, 4);
  await clock.advance(0);
  s.coolDown(2000);
  assert.ok(s.cooldownUntil === 2000);
  await clock.advance(1999);
  assert.equal(grants.length, 1, "nobody starts during the cool-down");
  await clock.advance(1000);
  assert.deepEqual(grants.map((g) => g.at), [0, 2000, 2100, 2200]);
  assert.equal(s.cooldownUntil, undefined);
});

Deno.test("a cool-down is extended, never shortened", async () => {
  const { s, clock } = scheduler();
  s.coolDown(5000);
  s.coolDown(1000);
  assert.equal(s.cooldownUntil, 5000);
  const granted = s.acquire();
  await clock.advance(5000);
  assert.equal((await granted).grantedAt, 5000);
});

Deno.test("a cool-down longer than callers should wait fails waiters at once with CooldownError", async () => {
  const { s, clock } = scheduler({ intervalMs: 1000, maxCooldownWaitMs: 30_000 });
  (await s.acquire()).release();
  const queued = s.acquire();
  s.coolDown(3_600_000);
  await assert.rejects(queued, (e) => e instanceof CooldownError && e.retryAfterMs === 3_600_000);
  await assert.rejects(s.acquire(), CooldownError);
  assert.equal(s.queueLength, 0);
  await clock.advance(3_600_000);
  assert.equal((await s.acquire()).grantedAt, 3_600_000);
});

Deno.test("an aborted waiter leaves the queue; the others keep their order and spacing", async () => {
  const { s, clock } = scheduler({ intervalMs: 100 });
  const controller = new AbortController();
  const order: string[] = [];
  const a = s.acquire().then((p) => (order.push(`a@${clock.now()}`), p.release()));
  const b = s.acquire(controller.signal).then((p) => (order.push("b"), p.release()));
  const c = s.acquire().then((p) => (order.push(`c@${clock.now()}`), p.release()));
  await clock.advance(0);
  assert.equal(s.queueLength, 2);
  controller.abort(new Error("cancelled by caller"));
  await assert.rejects(b, /cancelled by caller/);
  assert.equal(s.queueLength, 1);
  await clock.advance(500);
  await Promise.all([a, c]);
  assert.deepEqual(order, ["a@0", "c@100"]);
});

Deno.test("acquire with an already aborted signal rejects without queueing", async () => {
  const { s } = scheduler();
  await assert.rejects(s.acquire(AbortSignal.abort(new Error("gone"))), /gone/);
  assert.equal(s.queueLength, 0);
});

Deno.test("slow-down stretches the spacing and setting it back to 1 restores it", async () => {
  const { s, clock } = scheduler({ intervalMs: 200 });
  s.setSlowdown(2);
  assert.equal(s.effectiveIntervalMs, 400);
  const { grants } = burst(s, clock, 3);
  await clock.advance(500);
  assert.deepEqual(grants.map((g) => g.at), [0, 400]);
  s.setSlowdown(1);
  await clock.advance(1000);
  assert.deepEqual(grants.map((g) => g.at), [0, 400, 600]);
});

Deno.test("permits() yields a new permit per iteration, each queued behind earlier waiters", async () => {
  const { s, clock } = scheduler({ intervalMs: 100 });
  const seen: string[] = [];
  const loop = (async () => {
    let n = 0;
    for await (const permit of s.permits()) {
      seen.push(`loop${n}@${clock.now()}`);
      permit.release();
      if (++n === 2) break;
      // Someone else queues while the loop is between attempts: the loop's next permit comes after it.
      s.acquire().then((p) => (seen.push(`other@${clock.now()}`), p.release()));
    }
  })();
  await clock.advance(1000);
  await loop;
  assert.deepEqual(seen, ["loop0@0", "other@100", "loop1@200"]);
});

Deno.test("a cold start holds the queue until the first request is answered; spacing counts from the answer", async () => {
  const { s, clock } = scheduler({ intervalMs: 100, marginPct: 10 });
  const { grants } = burst(s, clock, 3, true);
  await clock.advance(500);
  assert.deepEqual(grants.map((g) => g.at), [0], "its arrival is unknown until it is answered");
  grants[0].permit.release();
  await clock.advance(1000);
  assert.deepEqual(grants.map((g) => g.at), [0, 610, 720], "answered at 500, then 110 ms spacing");
});

Deno.test("a cold request unanswered after 2 s stops holding the queue; 30 s idle makes the gate cold again", async () => {
  const { s, clock } = scheduler({ intervalMs: 100, marginPct: 10 });
  const { grants } = burst(s, clock, 2, true);
  await clock.advance(3000);
  assert.deepEqual(grants.map((g) => g.at), [0, 2110]);
  for (const g of grants) g.permit.release();
  await clock.advance(30_000);
  const again = burst(s, clock, 2, true);
  await clock.advance(1000);
  assert.equal(again.grants.length, 1, "cold again after 30 s without a request");
});

Deno.test("an exact setting (margin 0) neither stretches the spacing nor holds a cold start", async () => {
  const { s, clock } = scheduler({ intervalMs: 100, marginPct: 0 });
  const { grants } = burst(s, clock, 3, true);
  await clock.advance(1000);
  assert.deepEqual(grants.map((g) => g.at), [0, 100, 200]);
});

Deno.test("an answer later than the fastest recent one by more than the margin's slack moves the queue back", async () => {
  const { s, clock } = scheduler({ intervalMs: 334, marginPct: 10 });
  assert.equal(s.lateSlackMs, 100, "10 % of one second");
  const { grants } = burst(s, clock, 5, true);
  await clock.advance(10);
  grants[0].permit.answered!(); // fastest answer: 10 ms
  grants[0].permit.release();
  await clock.advance(368);
  assert.deepEqual(grants.map((g) => g.at), [0, 378], "cold start: spacing from the first answer");
  await clock.advance(40);
  grants[1].permit.answered!(); // 40 ms: 30 ms slower than the fastest, within the slack
  await clock.advance(328);
  assert.deepEqual(grants.map((g) => g.at), [0, 378, 746]);
  await clock.advance(310);
  grants[2].permit.answered!(); // 310 ms: 300 ms slower than the fastest, beyond the slack: it arrived late
  await clock.advance(2000);
  assert.deepEqual(grants.map((g) => g.at), [0, 378, 746, 1114 + 300, 1482 + 300]);
});

Deno.test("a request that leaves late (stalled event loop) pushes the next grant back: spacing counts from the send", async () => {
  const { s, clock } = scheduler();
  const { grants } = burst(s, clock, 3, true);
  await clock.advance(0);
  assert.equal(grants.length, 1);
  // The event loop stalls for 300 ms between the grant and the actual send.
  await clock.advance(300);
  grants[0].permit.sent?.();
  grants[0].permit.release();
  await clock.advance(2000);
  assert.deepEqual(grants.map((g) => g.at), [0, 300 + 334, 300 + 2 * 334]);
});
