/**
 * The citation thread: references render on a worker, a cancelled request is answered at once while the
 * next still renders, a worker that cannot start leaves rendering on this thread with one warning, and a
 * worker that dies fails its requests and is replaced.
 */
import assert from "node:assert/strict";
import { memoryLogger } from "../../../src/core/log.ts";
import { RenderHost, type RenderWorker, spawnRenderWorker } from "../../../src/sources/citations/render_thread.ts";
import { goldenCsl } from "./records.ts";

const item = () => goldenCsl("habanero__10.1038_srep16696.json");

Deno.test("a reference renders on the worker, and the host ends it on close", async () => {
  const log = memoryLogger();
  let spawned = 0;
  const host = new RenderHost({ log, spawn: () => (spawned++, spawnRenderWorker()) });
  try {
    const text = await host.render(item(), "vancouver_string");
    assert.match(text, /Sci Rep\. 2015 Nov 19;5\(1\):16696\./);
    assert.equal(await host.render(item(), "ama_string").then((t) => t.includes("16696")), true);
    assert.equal(spawned, 1, "one worker for both");
    assert.equal(host.inlineOnly, false);
    assert.deepEqual(log.records, []);
  } finally {
    host.close();
  }
});

Deno.test("a cancelled request rejects with its reason at once; a request beside it still renders", async () => {
  const host = new RenderHost();
  try {
    const controller = new AbortController();
    const order: string[] = [];
    // Chicago's engine takes the longest to build: the cancelled call must not wait for it.
    const cancelled = host.render(item(), "chicago_author_date_string", controller.signal).then(
      () => order.push("cancelled resolved"),
      (error) => order.push(`cancelled rejected: ${error}`),
    );
    const kept = host.render(item(), "chicago_author_date_string").then((text) => order.push(`kept: ${text}`));
    controller.abort(new Error("client went away"));
    await Promise.all([cancelled, kept]);
    assert.equal(order[0], "cancelled rejected: Error: client went away");
    assert.match(order[1], /^kept: Tosatto, Laura/);
    await assert.rejects(host.render(item(), "apa_string", AbortSignal.abort(new Error("early"))), /early/);
  } finally {
    host.close();
  }
});

Deno.test("no worker (no read permission, no Worker): rendered on this thread, one warning saying why", async () => {
  const log = memoryLogger();
  const host = new RenderHost({
    log,
    spawn: () => {
      throw new Error("this run may not read src/sources/");
    },
  });
  assert.match(await host.render(item(), "nature_string"), /Sci Rep 5, 16696 \(2015\)/);
  assert.match(await host.render(item(), "ieee_string"), /Art\. no\. 16696/);
  assert.equal(host.inlineOnly, true);
  assert.equal(log.records.length, 1);
  assert.match(String(log.records[0].reason), /may not read src\/sources/);
});

Deno.test("a worker that dies after starting fails its request; the next request starts a new one", async () => {
  const workers: FakeWorker[] = [];
  const host = new RenderHost({ spawn: () => workers[workers.push(new FakeWorker()) - 1] });
  const first = host.render(item(), "apa_string");
  workers[0].answer({ ready: true });
  workers[0].fail("out of memory");
  await assert.rejects(first, /the citation worker failed: out of memory/);
  assert.equal(workers[0].terminated, true);
  const second = host.render(item(), "apa_string");
  assert.equal(workers.length, 2);
  workers[1].answer({ id: workers[1].sent[0].id, ok: true, text: "rendered" });
  assert.equal(await second, "rendered");
  host.close();
});

/** A worker the test drives: it records what it is sent and answers or fails when told. */
class FakeWorker implements RenderWorker {
  sent: { id: number }[] = [];
  terminated = false;
  onmessage: RenderWorker["onmessage"] = null;
  onerror: RenderWorker["onerror"] = null;
  onmessageerror: RenderWorker["onmessageerror"] = null;
  postMessage(message: { id: number }): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  answer(data: unknown): void {
    this.onmessage?.call(this as unknown as Worker, new MessageEvent("message", { data }));
  }
  fail(message: string): void {
    this.onerror?.call(this as unknown as Worker, new ErrorEvent("error", { message, cancelable: true }));
  }
}
