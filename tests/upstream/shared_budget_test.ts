/**
 * One rate budget across instances, on one injected clock: several pipelines (instances) share a store
 * with KV's check-and-commit semantics, a simulated network adds jitter (and 400 ms to each instance's
 * first request: a fresh process, a cold connection), and the mock's referee judges arrivals. Together the instances keep each upstream's limit; a throttle seen by one cools all down;
 * losing the store degrades to per-instance pacing with a warning, never to unpaced requests.
 */
import assert from "node:assert/strict";
import { defaultRateRules, RateGate } from "../../scripts/mock_upstream/rate_gate.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { sharedGates } from "../../src/upstream/shared_budget.ts";
import { createUpstream, type ServiceRequest, type ServiceUpstream } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";
import { drive } from "./helpers.ts";
import { MemoryBudgetStore } from "./memory_budget_store.ts";

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface World {
  clock: ManualClock;
  instances: ServiceUpstream[];
  arrivals: { at: number; instance: number; violation?: string }[];
  logs: ReturnType<typeof memoryLogger>[];
}

/**
 * `count` instances on one clock; `store` shared by all (or none: each paces alone). `answer` may replace
 * the referee's verdict for a request.
 */
function world(
  count: number,
  store: MemoryBudgetStore | undefined,
  answer?: (instance: number, index: number) => Response | undefined,
  coldMs = 400,
): World {
  const clock = new ManualClock(1_700_000_000_000);
  const referee = new RateGate(defaultRateRules());
  const jitter = seeded(11);
  const arrivals: World["arrivals"] = [];
  const logs = Array.from({ length: count }, () => memoryLogger());
  const warm = new Set<number>();
  const instances = logs.map((log, instance) =>
    createUpstream({
      fetch: async (request) => {
        const cold = warm.has(instance) ? 0 : coldMs;
        warm.add(instance);
        await clock.sleep(cold + 20 + Math.floor(jitter() * 100));
        const upstream = new URL(request.url).hostname.startsWith("pubchem") ? "pubchem" : "ncbi-eutils";
        const violation = referee.arrive(upstream, clock.now());
        referee.done(upstream);
        arrivals.push({ at: clock.now(), instance, violation });
        const scripted = answer?.(instance, arrivals.length - 1);
        await clock.sleep(20);
        if (scripted) return scripted;
        return violation ? Response.json({ error: "API rate limit exceeded" }, { status: 429 }) : new Response("ok");
      },
      clock,
      config: testConfig({ NCBI_REQUEST_DELAY_MS: "" }),
      log,
      random: seeded(instance + 1),
      gates: store ? sharedGates({ store, log, retryStoreAfterMs: 5000 }) : undefined,
    })
  );
  return { clock, instances, arrivals, logs };
}

const esearch = (i: number): ServiceRequest => ({
  upstream: "ncbi-eutils",
  path: "/esearch.fcgi",
  query: { term: `q${i}` },
});

/** `calls` distinct requests spread round-robin over the instances, all at once. */
async function spread(w: World, calls: number, request = esearch) {
  const results = await drive(
    w.clock,
    Promise.allSettled(
      Array.from({ length: calls }, (_, i) => w.instances[i % w.instances.length].request(request(i))),
    ),
    1000,
  );
  return {
    succeeded: results.filter((r) => r.status === "fulfilled").length,
    violations: w.arrivals.filter((a) => a.violation).length,
    requests: w.arrivals.length,
  };
}

Deno.test("three instances sharing one budget: 30 concurrent NCBI calls at 3 req/s, zero 429s, none lost", async () => {
  const store = new MemoryBudgetStore();
  const w = world(3, store);
  assert.deepEqual(await spread(w, 30), { succeeded: 30, violations: 0, requests: 30 });
  assert.deepEqual(new Set(w.arrivals.map((a) => a.instance)), new Set([0, 1, 2]), "every instance sent some");
  assert.ok(store.conflicts > 0, "instances raced for slots and the check-and-commit settled it");
});

Deno.test("a cold instance holds the shared budget only until its first answer when nobody queued behind it", async () => {
  const store = new MemoryBudgetStore();
  const w = world(1, store);
  const first = w.instances[0].request(esearch(0));
  await drive(w.clock, first, 10);
  const answeredAt = w.clock.now();
  assert.ok(store.peek("ncbi-eutils")!.next <= answeredAt + 368, "the 2 s hold shrank to the answer + spacing");
});

Deno.test("PubChem's 5 req/s is shared the same way", async () => {
  const w = world(3, new MemoryBudgetStore());
  const cid = (i: number): ServiceRequest => ({ upstream: "pubchem", path: `/pug/compound/cid/${i + 1}/JSON` });
  assert.deepEqual(await spread(w, 30, cid), { succeeded: 30, violations: 0, requests: 30 });
});

Deno.test("without a shared budget the same three instances exceed the limit three-fold", async () => {
  const w = world(3, undefined);
  const outcome = await spread(w, 30);
  assert.ok(outcome.violations > 5, JSON.stringify(outcome));
});

Deno.test("a 429 seen by one instance cools every instance down", async () => {
  const store = new MemoryBudgetStore();
  const w = world(
    2,
    store,
    (_instance, index) => index === 0 ? new Response("", { status: 429, headers: { "retry-after": "5" } }) : undefined,
  );
  const start = w.clock.now();
  const first = w.instances[0].request(esearch(0));
  await w.clock.advance(1000);
  assert.ok(store.peek("ncbi-eutils")!.cooldownUntil > w.clock.now(), "the cool-down reached the store");
  const second = w.instances[1].request(esearch(1));
  await drive(w.clock, Promise.all([first, second]), 100);
  const other = w.arrivals.find((a) => a.instance === 1)!;
  assert.ok(
    other.at - start >= 5000,
    `instance 1 waited out instance 0's cool-down (arrived after ${other.at - start} ms)`,
  );
});

Deno.test("a shared cool-down longer than callers should wait fails fast on another instance", async () => {
  const store = new MemoryBudgetStore();
  const w = world(
    2,
    store,
    (instance) => instance === 0 ? new Response("", { status: 429, headers: { "retry-after": "3600" } }) : undefined,
  );
  await drive(w.clock, w.instances[0].request(esearch(0)).catch(() => {}));
  const error = await w.instances[1].request(esearch(1)).catch((e) => e);
  assert.ok(error instanceof UpstreamError);
  assert.equal(toErrorEnvelope(error).code, "RATE_LIMITED");
  assert.equal(w.arrivals.length, 1, "instance 1 never reached the upstream");
});

Deno.test("losing the store degrades to per-instance pacing with one warning, never to unpaced requests", async () => {
  const store = new MemoryBudgetStore();
  store.failure = new Error("connection to the KV store lost");
  const w = world(1, store);
  const outcome = await spread(w, 12);
  assert.deepEqual(outcome, { succeeded: 12, violations: 0, requests: 12 });
  const gaps = w.arrivals.slice(1).map((a, i) => a.at - w.arrivals[i].at);
  assert.ok(Math.min(...gaps) >= 368 - 100, `paced locally: gaps ${gaps.join(", ")}`);
  const warnings = w.logs[0].records.filter((r) => r.level === "warning" && /shared rate budget/.test(r.msg));
  assert.equal(warnings.length, 1);
  assert.match(String(warnings[0].error), /connection to the KV store lost/);

  store.failure = undefined;
  await w.clock.advance(10_000);
  await spread(w, 2, (i) => esearch(100 + i));
  assert.ok(store.peek("ncbi-eutils"), "the store is used again once it answers");
  assert.ok(w.logs[0].records.some((r) => /shared rate budget is back/.test(r.msg)));
});

Deno.test("scale-out from a cold start: 1, 2 and 4 instances deliver ≥ 2.4 req/s together from the first second", async () => {
  for (const count of [1, 2, 4]) {
    const w = world(count, new MemoryBudgetStore(), undefined, 30);
    const start = w.clock.now();
    const outcome = await spread(w, 60);
    const inFirst15s = w.arrivals.filter((a) => a.at - start <= 15_000).length;
    assert.equal(outcome.violations, 0, `${count} instances`);
    // Each instance's first request used to hold the budget ~2.4 s whatever its answer took.
    assert.ok(inFirst15s / 15 >= 2.4, `${count} instances: ${inFirst15s} arrivals in the first 15 s`);
  }
});

Deno.test("a send that leaves late pushes the shared schedule back: another instance spaces from the send", async () => {
  const store = new MemoryBudgetStore();
  const clock = new ManualClock(1_700_000_000_000);
  const options = { name: "ncbi-eutils", intervalMs: 334, marginPct: 10, concurrency: 3, maxCooldownWaitMs: 30_000 };
  const [a, b] = [0, 1].map(() => sharedGates({ store, log: memoryLogger() })(options, clock));
  const first = await drive(clock, a.permits()[Symbol.asyncIterator]().next(), 10);
  // The event loop stalls for 300 ms between the slot and the actual send.
  await clock.advance(300);
  const sentAt = clock.now();
  first.value!.sent?.();
  first.value!.release();
  const second = await drive(clock, b.permits()[Symbol.asyncIterator]().next(), 10);
  assert.ok(
    second.value!.grantedAt >= sentAt + 368,
    `the next slot is ${second.value!.grantedAt - sentAt} ms after the late send (spacing 368 ms)`,
  );
  second.value!.release();
});

Deno.test("a poisoned next slot an hour ahead is repaired with one warning; calls go through at once", async () => {
  const store = new MemoryBudgetStore();
  const w = world(2, store);
  store.poke("ncbi-eutils", { next: w.clock.now() + 3_600_000, window: [], cooldownUntil: -Infinity, slowdown: 1 });
  const start = w.clock.now();
  const outcome = await spread(w, 6);
  assert.deepEqual(outcome, { succeeded: 6, violations: 0, requests: 6 });
  assert.ok(w.clock.now() - start < 10_000, `done after ${w.clock.now() - start} ms, not an hour`);
  const warnings = w.logs.flatMap((l) => l.records).filter((r) => /record repaired/.test(r.msg));
  assert.ok(warnings.length >= 1 && warnings.length <= 2, "one warning (per instance that saw it)");
  assert.match(String(warnings[0].reason), /next slot 3600 s ahead/);
  assert.ok(store.peek("ncbi-eutils")!.next < w.clock.now() + 5_000, "the stored record is repaired too");
});

Deno.test("a poisoned cool-down an hour ahead is cut to 5 minutes with one warning, and the store repaired", async () => {
  const store = new MemoryBudgetStore();
  const w = world(1, store);
  const start = w.clock.now();
  store.poke("ncbi-eutils", { next: -Infinity, window: [], cooldownUntil: start + 3_600_000, slowdown: 1 });
  const error = await drive(w.clock, w.instances[0].request(esearch(0)).catch((e) => e), 10);
  assert.ok(error instanceof UpstreamError);
  assert.equal(toErrorEnvelope(error).code, "RATE_LIMITED");
  const wait = Number(/retry after (\d+) s/.exec(error.message)?.[1]);
  assert.ok(wait <= 300, `told to wait ${wait} s (${error.message})`);
  const warnings = w.logs.flatMap((l) => l.records).filter((r) => /record repaired/.test(r.msg));
  assert.equal(warnings.length, 1);
  assert.match(String(warnings[0].reason), /cool-down over 5 min/);
  assert.ok(store.peek("ncbi-eutils")!.cooldownUntil <= start + 300_000 + 1_000, "the stored record is repaired too");
  await w.clock.advance(301_000);
  assert.ok(await drive(w.clock, w.instances[0].request(esearch(1)), 10), "the upstream answers after 5 min");
});

Deno.test("a Retry-After of an hour is written to the shared record as at most 5 minutes", async () => {
  const store = new MemoryBudgetStore();
  const w = world(
    1,
    store,
    (_, n) => n === 0 ? new Response("", { status: 429, headers: { "retry-after": "3600" } }) : undefined,
  );
  const start = w.clock.now();
  await drive(w.clock, w.instances[0].request(esearch(0)).catch(() => {}));
  const until = store.peek("ncbi-eutils")!.cooldownUntil;
  assert.ok(until > start && until <= w.clock.now() + 300_000, `cool-down until +${(until - start) / 1000} s`);
});

for (
  const [label, bad] of [
    ['"next":"abc"', { next: "abc", window: [], cooldownUntil: 0, slowdown: 1 }],
    ["NaN", { next: NaN, window: [], cooldownUntil: NaN, slowdown: NaN }],
    ["not a record", "garbage"],
  ] as const
) {
  Deno.test(`a malformed record (${label}) is repaired with a warning, and the instances still share one pace`, async () => {
    const store = new MemoryBudgetStore();
    const w = world(3, store);
    store.poke("ncbi-eutils", bad);
    assert.deepEqual(await spread(w, 15), { succeeded: 15, violations: 0, requests: 15 });
    const warnings = w.logs.flatMap((l) => l.records).filter((r) => /record repaired/.test(r.msg));
    assert.ok(warnings.length >= 1, "repaired with a warning");
    assert.match(String(warnings[0].reason), /malformed record/);
    assert.equal(typeof store.peek("ncbi-eutils")!.next, "number");
  });
}
