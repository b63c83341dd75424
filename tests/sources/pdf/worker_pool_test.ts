/**
 * WorkerPool mechanics with a stand-in worker (a data: URL module) that answers after bytes[0] × 10 ms,
 * or throws when bytes[0] is 255: queueing, time budgets (on a manual clock), cancellation, crashes, idle
 * slots. The process channel is exercised with the real extractor in extractor_test.ts.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../../src/core/clock.ts";
import { workerChannels } from "../../../src/sources/pdf/extractor_process.ts";
import { WorkerPool } from "../../../src/sources/pdf/worker_pool.ts";
import { PdfExtractionError } from "../../../src/sources/pdf/types.ts";

const FAKE_WORKER = new URL(
  "data:text/javascript," + encodeURIComponent(`
    self.onmessage = ({ data }) => {
      if (data.bytes[0] === 255) throw new Error("worker exploded");
      setTimeout(() => self.postMessage({ id: data.id, kind: "done", pageCount: 1, pages: [String(data.bytes[0])] }),
        data.bytes[0] * 10);
    };`),
);

const job = (tenths: number) => ({ op: "extract" as const, bytes: new Uint8Array([tenths]), maxPages: 10 });

function pool(size = 1, idleMs?: number, clock?: ManualClock, spawnMinQueuedBytes = 0): WorkerPool {
  return new WorkerPool({
    size,
    idleMs,
    clock,
    spawnMinQueuedBytes,
    channels: workerChannels({ workerUrl: FAKE_WORKER }),
  });
}

Deno.test("jobs beyond the pool size wait their turn and all complete", async () => {
  const p = pool(1);
  try {
    const replies = await Promise.all([1, 2, 3].map((n) => p.run(job(n), { timeoutMs: 5000 })));
    assert.deepEqual(replies.map((r) => r.kind === "done" && r.pages[0]), ["1", "2", "3"]);
    assert.equal(p.workers, 1);
  } finally {
    await p.close();
  }
});

Deno.test("a job over its time budget on the injected clock fails with 'timeout' and its slot is replaced", async () => {
  const clock = new ManualClock();
  const p = pool(1, undefined, clock);
  try {
    const running = p.run(job(200), { timeoutMs: 50 });
    const rejected = assert.rejects(running, (error: unknown) => {
      assert.ok(error instanceof PdfExtractionError);
      assert.equal(error.reason, "timeout");
      return true;
    });
    await clock.advance(49);
    assert.equal(p.workers, 1, "still within its budget");
    await clock.advance(1);
    await rejected;
    assert.equal(p.workers, 0, "the stuck worker was terminated");
    const next = await p.run(job(1), { timeoutMs: 5000 });
    assert.equal(p.spawned, 2);
    assert.equal(next.kind === "done" && next.pages[0], "1");
  } finally {
    await p.close();
  }
});

Deno.test("cancelling a queued job removes it; cancelling a running one ends its worker", async () => {
  const p = pool(1);
  try {
    const running = new AbortController();
    const queued = new AbortController();
    const first = p.run(job(30), { timeoutMs: 5000, signal: running.signal });
    const second = p.run(job(1), { timeoutMs: 5000, signal: queued.signal });
    queued.abort(new Error("queued job cancelled"));
    await assert.rejects(second, /queued job cancelled/);
    running.abort(new Error("running job cancelled"));
    await assert.rejects(first, /running job cancelled/);
    assert.equal(p.workers, 0);
    assert.equal((await p.run(job(1), { timeoutMs: 5000 })).kind, "done");
  } finally {
    await p.close();
  }
});

Deno.test("a worker that crashes fails its job without taking the process down", async () => {
  const p = pool(1);
  try {
    await assert.rejects(p.run(job(255), { timeoutMs: 5000 }), /PDF extraction worker failed: .*worker exploded/);
    assert.equal(p.workers, 0);
    assert.equal((await p.run(job(1), { timeoutMs: 5000 })).kind, "done");
  } finally {
    await p.close();
  }
});

Deno.test("a pool starts no slot before its first job, and ends idle slots after the idle time", async () => {
  const p = pool(2, 30);
  try {
    assert.equal(p.workers, 0, "nothing runs before the first job");
    assert.equal(p.spawned, 0);
    await Promise.all([p.run(job(1), { timeoutMs: 5000 }), p.run(job(1), { timeoutMs: 5000 })]);
    assert.equal(p.spawned, 2);
    for (let waited = 0; p.workers > 0 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(p.workers, 0);
    assert.equal(p.spawned, 2, "no slot was started again");
  } finally {
    await p.close();
  }
});

Deno.test("while a slot is busy, small queued jobs wait for it; another starts only for enough queued bytes", async () => {
  const p = pool(2, undefined, new ManualClock(), 1000);
  try {
    const small = await Promise.all([1, 2, 3, 4, 5].map((n) => p.run(job(n), { timeoutMs: 5000 })));
    assert.deepEqual(small.map((r) => r.kind === "done" && r.pages[0]), ["1", "2", "3", "4", "5"]);
    assert.equal(p.spawned, 1, "five small jobs, one slot");
    const large = { ...job(1), bytes: new Uint8Array(1000).fill(1) };
    await Promise.all([p.run(job(20), { timeoutMs: 5000 }), p.run(large, { timeoutMs: 5000 })]);
    assert.equal(p.spawned, 2, "a large job queued behind a busy slot starts the second");
  } finally {
    await p.close();
  }
});

Deno.test("a small job that has waited spawnAfterMs behind a busy slot gets a second one", async () => {
  const clock = new ManualClock();
  const p = new WorkerPool({
    size: 2,
    clock,
    spawnAfterMs: 500,
    channels: workerChannels({ workerUrl: FAKE_WORKER }),
  });
  try {
    const long = p.run(job(100), { timeoutMs: 60_000 });
    const small = p.run(job(1), { timeoutMs: 60_000 });
    await clock.advance(499);
    assert.equal(p.spawned, 1, "not yet: it may still be the one slot's turn soon");
    await clock.advance(1);
    assert.equal(p.spawned, 2);
    const reply = await small;
    assert.equal(reply.kind === "done" && reply.pages[0], "1");
    await long;
  } finally {
    await p.close();
  }
});

Deno.test("release ends idle slots at once and leaves a busy one to finish its job", async () => {
  const p = pool(2);
  try {
    await p.run(job(1), { timeoutMs: 5000 });
    const busy = p.run(job(20), { timeoutMs: 5000 });
    p.release();
    assert.equal(p.workers, 1, "the idle slot ended, the busy one runs on");
    const reply = await busy;
    assert.equal(reply.kind === "done" && reply.pages[0], "20");
  } finally {
    await p.close();
  }
});

Deno.test("closing the pool fails queued jobs and refuses new ones", async () => {
  const p = pool(1);
  const running = p.run(job(20), { timeoutMs: 5000 });
  const queued = p.run(job(1), { timeoutMs: 5000 });
  await p.close();
  await assert.rejects(running, /closed/);
  await assert.rejects(queued, /closed/);
  await assert.rejects(p.run(job(1), { timeoutMs: 5000 }), /closed/);
});

Deno.test("the pool tells a slot that is still starting, and counts the jobs that waited for one", async () => {
  const clock = new ManualClock();
  const p = pool(1, undefined, clock);
  try {
    assert.equal(p.startingForMs, undefined, "no slot yet");
    const first = p.run(job(1), { timeoutMs: 5000 });
    await clock.advance(1200);
    assert.equal(p.startingForMs, 1200, "started 1.2 s ago, nothing answered yet");
    assert.equal(p.coldJobs, 1);
    await first;
    assert.equal(p.startingForMs, undefined, "it has answered: started");
    await p.run(job(1), { timeoutMs: 5000 });
    assert.equal(p.coldJobs, 1, "a job on a started slot did not wait");
  } finally {
    await p.close();
  }
});

Deno.test("a job that times out on a slot still starting says so", async () => {
  const clock = new ManualClock();
  const p = pool(1, undefined, clock);
  try {
    const running = p.run(job(200), { timeoutMs: 50 });
    const rejected = assert.rejects(running, /PDF_TIMEOUT_MS\) and was stopped\. Part of that time went to starting/);
    await clock.advance(50);
    await rejected;
  } finally {
    await p.close();
  }
});

/** A pool whose slots are the stand-in worker, recording whether each was started light. */
function lightPool(lightPageBudget: number, size = 1): { pool: WorkerPool; kinds: boolean[] } {
  const kinds: boolean[] = [];
  const threads = workerChannels({ workerUrl: FAKE_WORKER });
  const pool = new WorkerPool({
    size,
    spawnMinQueuedBytes: 0,
    lightSlots: true,
    lightPageBudget,
    channels: (events, kind) => {
      kinds.push(kind?.light ?? false);
      return threads(events);
    },
  });
  return { pool, kinds };
}

Deno.test("a small document starts a light slot; a long one replaces the idle light slot with a full one", async () => {
  const { pool: p, kinds } = lightPool(80);
  try {
    await p.run(job(1), { timeoutMs: 5000, light: true });
    await p.run(job(1), { timeoutMs: 5000, light: true });
    assert.deepEqual(kinds, [true], "one light slot reads both small documents");
    await p.run(job(1), { timeoutMs: 5000 });
    assert.deepEqual(kinds, [true, false], "the long document got a full slot");
    assert.equal(p.workers, 1, "the light slot was ended to make room");
    await p.run(job(1), { timeoutMs: 5000, light: true });
    assert.deepEqual(kinds, [true, false], "a full slot reads small documents too");
  } finally {
    await p.close();
  }
});

Deno.test("a light slot that has read its page budget is replaced by a full one for the next document", async () => {
  const { pool: p, kinds } = lightPool(2);
  try {
    for (let i = 0; i < 4; i++) await p.run(job(1), { timeoutMs: 5000, light: true });
    assert.deepEqual(kinds, [true, false], "light for the first two pages, then full");
    assert.equal(p.workers, 1);
  } finally {
    await p.close();
  }
});

Deno.test("without lightSlots every slot is full, whatever the jobs say", async () => {
  const kinds: boolean[] = [];
  const threads = workerChannels({ workerUrl: FAKE_WORKER });
  const p = new WorkerPool({
    size: 1,
    channels: (events, kind) => (kinds.push(kind?.light ?? false), threads(events)),
  });
  try {
    await p.run(job(1), { timeoutMs: 5000, light: true });
    assert.deepEqual(kinds, [false]);
  } finally {
    await p.close();
  }
});
