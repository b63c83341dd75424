/** Parse once: kept and shared tool results (src/core/result_memo.ts, invokeShared). */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { ResultMemo, stableJson } from "../../src/core/result_memo.ts";
import { invokeShared, toolContext } from "../../src/runtime.ts";
import { mockUpstreamRoute } from "../helpers/tool_harness.ts";
import { scriptedFetch, testConfig, testRuntime } from "../helpers/runtime.ts";

type R = { isError?: boolean; n: number };

Deno.test("a kept result answers the same call again without running it", async () => {
  const clock = new ManualClock(0);
  const memo = new ResultMemo<R>({ clock, ttlMs: 1_000 });
  let runs = 0;
  const make = () => Promise.resolve({ n: ++runs });
  const first = await memo.run("k", make);
  assert.equal(await memo.run("k", make), first);
  assert.equal(runs, 1);
  await clock.advance(1_001);
  assert.equal((await memo.run("k", make)).n, 2, "after its lifetime the call runs again");
});

Deno.test("identical calls in flight share one run; different keys do not", async () => {
  const memo = new ResultMemo<R>({ clock: new ManualClock(0) });
  let runs = 0;
  const gate = Promise.withResolvers<void>();
  const make = async () => {
    runs++;
    await gate.promise;
    return { n: runs };
  };
  const calls = Array.from({ length: 50 }, () => memo.run("same", make));
  const other = memo.run("other", make);
  gate.resolve();
  const results = await Promise.all(calls);
  assert.equal(runs, 2);
  assert.ok(results.every((r) => r === results[0]));
  assert.notEqual(await other, results[0]);
});

Deno.test("errors are neither kept nor shared: each caller then runs its own call", async () => {
  const memo = new ResultMemo<R>({ clock: new ManualClock(0) });
  let runs = 0;
  const gate = Promise.withResolvers<void>();
  const failing = async () => {
    runs++;
    await gate.promise;
    return { isError: true, n: runs };
  };
  const leader = memo.run("k", failing);
  const follower = memo.run("k", () => Promise.resolve({ n: 99 }));
  gate.resolve();
  assert.equal((await leader).isError, true);
  assert.equal((await follower).n, 99, "the follower ran its own call after the leader failed");
  assert.equal((await memo.run("e", failing)).isError, true);
  assert.equal((await memo.run("e", () => Promise.resolve({ n: 7 }))).n, 7, "the error was not kept");
});

Deno.test("a waiting caller that is cancelled stops waiting for another's call", async () => {
  const memo = new ResultMemo<R>({ clock: new ManualClock(0) });
  const never = new Promise<R>(() => {});
  void memo.run("k", () => never);
  const controller = new AbortController();
  const waiting = memo.run("k", () => Promise.resolve({ isError: true, n: -1 }), controller.signal);
  controller.abort();
  assert.equal((await waiting).n, -1);
});

Deno.test("argument order does not make a different call", () => {
  assert.equal(stableJson({ b: [1, { d: 2, c: 3 }], a: "x" }), stableJson({ a: "x", b: [1, { c: 3, d: 2 }] }));
  assert.notEqual(stableJson({ a: 1 }), stableJson({ a: "1" }));
});

Deno.test("invokeShared: a repeated network call is answered from the kept result, a local one runs again", async () => {
  const config = testConfig();
  const fetch = scriptedFetch(mockUpstreamRoute(config));
  const runtime = testRuntime({ config, fetch });
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const def = (await runtime.catalogue.tool(name))!;
      const ctx = toolContext(runtime, { signal: new AbortController().signal, requestId: "t" });
      return await invokeShared(runtime, def, args, ctx);
    };
    const first = await call("fetchArticleDetails", { pmids: ["27797938"] });
    const sent = fetch.requests.length;
    const again = await call("fetchArticleDetails", { pmids: ["27797938"] });
    assert.equal(again, first, "the same result object: not parsed, checked or rendered again");
    assert.equal(fetch.requests.length, sent);
    const list1 = await call("list_pdfs", {});
    const list2 = await call("list_pdfs", {});
    assert.notEqual(list2, list1, "local files can change: list_pdfs always runs");
  } finally {
    await runtime.close();
  }
});
