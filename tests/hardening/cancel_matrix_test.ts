/**
 * Every network tool, cancelled at three points of its work, then used again on the same runtime: before
 * its first upstream answer, between two upstream calls, and after the last upstream answer before the
 * result is sent. The upstream is the in-process mock behind a gate that holds a request until the call is
 * cancelled. Each case passes only when the cancelled call left nothing behind: the next call succeeds,
 * and the process-level guard caught no unhandled rejection (without the guard, one ends the process).
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { guardRejections, UNHANDLED_REJECTION } from "../../src/core/rejection_guard.ts";
import type { AnyToolDef } from "../../src/tools/tool_def.ts";
import { mockUpstreamRoute, type ToolHarness, toolHarness } from "../helpers/tool_harness.ts";
import { type Route, testConfig } from "../helpers/runtime.ts";

type Point = "before the first answer" | "between two upstream calls" | "after the last answer";

/**
 * A route in front of the mock: requests before number `hold` are answered; from `hold` on each hangs until
 * its request is aborted. With `after`, the answer to request number `after` runs `onRead` once its body has
 * been read to the end (the tool has every answer and is about to build its result).
 */
function gate(options: { hold?: number; after?: number }) {
  const mock = mockUpstreamRoute(testConfig());
  const reached = Promise.withResolvers<void>();
  let seen = 0;
  let held = true;
  let onRead = () => {};
  const route: Route = async (request) => {
    const n = seen++;
    if (held && options.hold !== undefined && n >= options.hold) {
      reached.resolve();
      return await new Promise<Response>((_, reject) => {
        const signal = request.signal;
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    }
    const response = await mock(request);
    if (!held || n !== options.after || !response?.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          reached.resolve();
          onRead();
        } else controller.enqueue(value);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    route,
    reached: reached.promise,
    onAbort: (f: () => void) => (onRead = f),
    /** Lets every later request through (the call after the cancelled one). */
    release: () => (held = false),
  };
}

/** The examples to cancel: each tool's first, and fetch_content once per repository source. */
function cases(): { def: AnyToolDef; examples: Record<string, unknown>[]; label: string }[] {
  const network = ALL_TOOLS.filter((d) => d.annotations.openWorldHint);
  return network.flatMap((def) => {
    const examples = def.examples as Record<string, unknown>[];
    if (def.name !== "fetch_content") return [{ def, examples, label: def.name }];
    return ["pubmed", "europepmc"].map((source) => ({
      def,
      examples: examples.filter((e) => e.source === source),
      label: `${def.name} (${source})`,
    }));
  });
}

/** Upstream requests one uncancelled call makes (the dry run); the call must succeed. */
async function requestsOf(name: string, args: Record<string, unknown>): Promise<number> {
  const h = await toolHarness({ driveClock: true });
  try {
    const result = await h.call(name, args);
    assert.notEqual(result.isError, true, `${name}: the uncancelled call fails: ${result.content[0]?.text}`);
    return h.requests.length;
  } finally {
    await h.close();
  }
}

/** Waits (driving the clock) until the runtime has no tool call left, the cancelled one included. */
async function idle(h: ToolHarness): Promise<void> {
  for (let i = 0; h.runtime.calls.size > 0; i++) {
    if (i > 6000) throw new Error("the cancelled call never ended");
    await h.clock.advance(1000);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function cancelAt(name: string, args: Record<string, unknown>, point: Point, requests: number) {
  const g = gate(
    point === "before the first answer"
      ? { hold: 0 }
      : point === "between two upstream calls"
      ? { hold: 1 }
      : { after: requests - 1 },
  );
  const h = await toolHarness({ routes: [g.route], mockRoutes: [], driveClock: true });
  const guard = guardRejections(h.runtime.deps.log, h.runtime.calls);
  try {
    const controller = new AbortController();
    g.onAbort(() => controller.abort("the user pressed stop"));
    const call = h.client.callTool({ name, arguments: args }, { signal: controller.signal });
    const outcome = h.settle(call).then(() => "answered", (error) => `rejected: ${error}`);
    // A tool that finishes without reading its last body to the end is past every point already.
    await Promise.race([g.reached, outcome]);
    if (point !== "after the last answer") controller.abort("the user pressed stop");
    await outcome;
    await idle(h);
    g.release();
    const again = await h.call(name, args);
    assert.notEqual(again.isError, true, `the next call fails: ${again.content[0]?.text}`);
    // A rejection left behind surfaces within a few turns of the event loop; give it those turns.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    const caught = h.logs.filter((r) => r.msg === UNHANDLED_REJECTION);
    assert.equal(guard.caught, 0, `unhandled rejections: ${JSON.stringify(caught)}`);
  } finally {
    guard.dispose();
    await h.close();
  }
}

for (const { def, examples, label } of cases()) {
  Deno.test(`cancelled mid-flight, then called again on the same runtime: ${label}`, async (t) => {
    // The first example that reaches the network (some answer a few from built-in lists).
    let args: Record<string, unknown> | undefined;
    let requests = 0;
    for (const example of examples) {
      requests = await requestsOf(def.name, example);
      if (requests > 0) {
        args = example;
        break;
      }
    }
    assert.ok(args, `${def.name}: no example reads the network`);
    const points: Point[] = ["before the first answer", "between two upstream calls", "after the last answer"];
    for (const point of points) {
      // One upstream call has no "between"; the other two points cover it.
      await t.step({
        name: `${point}: ${JSON.stringify(args)}`,
        ignore: point === "between two upstream calls" && requests < 2,
        fn: () => cancelAt(def.name, args!, point, requests),
      });
    }
  });
}
