import assert from "node:assert/strict";
import { Coalescer } from "../../src/upstream/coalesce.ts";

/** A work function the test finishes by hand, counting how often it started. */
function gate() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const signals: AbortSignal[] = [];
  const work = (signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
      signal.addEventListener("abort", () => reject(signal.reason));
    });
  };
  return { work, signals, finish: (v: string) => finish(v), fail: (e: Error) => fail(e) };
}

Deno.test("ten concurrent identical calls run the work once and all get its value", async () => {
  const coalescer = new Coalescer<string>();
  const g = gate();
  const calls = Array.from({ length: 10 }, () => coalescer.run("k", undefined, g.work));
  await Promise.resolve();
  g.finish("body");
  const results = await Promise.all(calls);
  assert.equal(g.signals.length, 1);
  assert.deepEqual(results.map((r) => r.value), Array(10).fill("body"));
  assert.deepEqual(results.map((r) => r.shared), [false, ...Array(9).fill(true)]);
  assert.equal(coalescer.size, 0);
});

Deno.test("different keys do not share work", async () => {
  const coalescer = new Coalescer<string>();
  let runs = 0;
  await Promise.all(["a", "b"].map((k) => coalescer.run(k, undefined, () => Promise.resolve(`${k}${++runs}`))));
  assert.equal(runs, 2);
});

Deno.test("one caller aborting does not cancel the shared work for the others", async () => {
  const coalescer = new Coalescer<string>();
  const g = gate();
  const quitter = new AbortController();
  const first = coalescer.run("k", quitter.signal, g.work);
  const second = coalescer.run("k", new AbortController().signal, g.work);
  const third = coalescer.run("k", undefined, g.work);
  await Promise.resolve();
  quitter.abort(new Error("caller 1 cancelled"));
  await assert.rejects(first, /caller 1 cancelled/);
  assert.equal(g.signals[0].aborted, false, "shared work keeps running");
  g.finish("body");
  assert.equal((await second).value, "body");
  assert.equal((await third).value, "body");
});

Deno.test("when every caller aborts, the shared work is aborted and the next caller starts afresh", async () => {
  const coalescer = new Coalescer<string>();
  const g = gate();
  const a = new AbortController();
  const b = new AbortController();
  const calls = [coalescer.run("k", a.signal, g.work), coalescer.run("k", b.signal, g.work)];
  await Promise.resolve();
  a.abort(new Error("a"));
  b.abort(new Error("b"));
  await Promise.allSettled(calls);
  assert.equal(g.signals[0].aborted, true);
  const again = coalescer.run("k", undefined, () => Promise.resolve("fresh"));
  assert.equal((await again).value, "fresh");
});

Deno.test("a failure reaches every caller and is not remembered", async () => {
  const coalescer = new Coalescer<string>();
  const g = gate();
  const calls = [coalescer.run("k", undefined, g.work), coalescer.run("k", undefined, g.work)];
  await Promise.resolve();
  g.fail(new Error("upstream down"));
  for (const call of calls) await assert.rejects(call, /upstream down/);
  assert.equal(coalescer.size, 0);
});
