/**
 * One deadline per tool call (TOOL_CALL_TIMEOUT_MS), on the injected clock: it covers every attempt,
 * back-off and queue wait, the call answers at the deadline even if its handler ignores the signal, and
 * the error names the deadline and the setting that changes it.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ManualClock } from "../../src/core/clock.ts";
import { DeadlineError, UpstreamError } from "../../src/core/errors.ts";
import { invokeTool, type ToolResult } from "../../src/core/invoke.ts";
import { memoryLogger } from "../../src/core/log.ts";
import type { InvokeContext, ToolDef } from "../../src/core/tool_def.ts";
import { toolContext } from "../../src/runtime.ts";
import { loadConfig } from "../../src/config.ts";
import { testConfig, testRuntime } from "../helpers/runtime.ts";
import { drive } from "../upstream/helpers.ts";

/** A fetch that never answers (until its request is aborted), as a black-holed upstream. */
function silentFetch(hits: number[], clock: ManualClock) {
  return (request: Request) => {
    hits.push(clock.now());
    return new Promise<Response>((_, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });
  };
}

async function settleAt(clock: ManualClock, call: Promise<ToolResult>): Promise<{ result: ToolResult; at: number }> {
  const start = clock.now();
  let at = NaN;
  const timed = call.then((result) => ((at = clock.now() - start), result));
  const result = await drive(clock, timed, 500);
  return { result, at };
}

Deno.test("a never-answering upstream ends the call at TOOL_CALL_TIMEOUT_MS, not after every retry", async () => {
  const clock = new ManualClock(0);
  const hits: number[] = [];
  const env = { UPSTREAM_TIMEOUT_MS: "30000", NCBI_MAX_RETRIES: "3", TOOL_CALL_TIMEOUT_MS: "60000" };
  const runtime = testRuntime({ clock, fetch: silentFetch(hits, clock), env });
  const def = (await runtime.catalogue.tool("searchPubMedArticles"))!;
  const ctx = toolContext(runtime, { signal: new AbortController().signal, requestId: "1" });
  const { result, at } = await settleAt(clock, invokeTool(def, { queryTerm: "CRISPR" }, ctx));
  assert.equal(at, 60_000, "the deadline, not 4 × 30 s plus back-offs");
  assert.equal(result.isError, true);
  const error = (result.structuredContent as { error: { code: string; message: string; recovery_hint: string } }).error;
  assert.equal(error.code, "UPSTREAM_ERROR");
  assert.equal(error.message, "searchPubMedArticles did not finish within its 60 s deadline.");
  assert.match(error.recovery_hint, /raise TOOL_CALL_TIMEOUT_MS \(now 60000 ms\)/);
  assert.equal(hits.length, 2, "the second attempt (after 30 s and a back-off) is cut short too");
  await runtime.close();
});

Deno.test("the deadline also ends a wait in the retry back-off and a handler that ignores its signal", async (t) => {
  await t.step("back-off", async () => {
    const clock = new ManualClock(0);
    let hits = 0;
    const runtime = testRuntime({
      clock,
      env: { TOOL_CALL_TIMEOUT_MS: "5000" },
      fetch: () => (hits++, Promise.resolve(new Response("busy", { status: 503, headers: { "retry-after": "20" } }))),
    });
    const def = (await runtime.catalogue.tool("searchPubMedArticles"))!;
    const ctx = toolContext(runtime, { signal: new AbortController().signal, requestId: "2" });
    const { result, at } = await settleAt(clock, invokeTool(def, { queryTerm: "BRCA1" }, ctx));
    assert.equal(at, 5000);
    assert.equal(hits, 1);
    assert.match(JSON.stringify(result.structuredContent), /within its 5 s deadline/);
    await runtime.close();
  });
  await t.step("a handler that never looks at its signal", async () => {
    const clock = new ManualClock(0);
    const stuck: ToolDef<z.ZodObject, z.ZodObject, InvokeContext> = {
      name: "stuck",
      title: "Stuck",
      toolset: "test",
      description: "never returns",
      input: z.object({}),
      output: z.object({}),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      examples: [{}],
      run: () => new Promise(() => {}),
      render: () => "",
    };
    const ctx: InvokeContext = { clock, log: memoryLogger(), deadline: { ms: 2000, setting: "SOME_SETTING" } };
    const { result, at } = await settleAt(clock, invokeTool(stuck, {}, ctx));
    assert.equal(at, 2000);
    assert.match(
      JSON.stringify(result.structuredContent),
      /stuck did not finish within its 2 s deadline.*SOME_SETTING/,
    );
  });
});

Deno.test("the handler's signal aborts with a DeadlineError, which the pipeline reports with the deadline", async () => {
  const clock = new ManualClock(0);
  const runtime = testRuntime({ clock, fetch: silentFetch([], clock), env: { TOOL_CALL_TIMEOUT_MS: "1000" } });
  let seen: unknown;
  const probe: ToolDef<z.ZodObject, z.ZodObject, ReturnType<typeof toolContext>> = {
    name: "probe",
    title: "Probe",
    toolset: "test",
    description: "asks NCBI and keeps the error",
    input: z.object({}),
    output: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    examples: [{}],
    run: async (_args, ctx) => {
      await ctx.upstream.request({ upstream: "ncbi-eutils", path: "/einfo.fcgi", signal: ctx.signal }).catch((e) =>
        seen = e
      );
      return {};
    },
    render: () => "",
  };
  const ctx = toolContext(runtime, { signal: new AbortController().signal, requestId: "3" });
  await settleAt(clock, invokeTool(probe, {}, ctx));
  await clock.advance(0);
  assert.ok(seen instanceof UpstreamError);
  assert.equal(seen.kind, "timeout");
  assert.ok(seen.cause instanceof DeadlineError);
  assert.match(
    seen.message,
    /did not answer before the 1 s deadline of this tool call passed \(set TOOL_CALL_TIMEOUT_MS/,
  );
  await runtime.close();
});

Deno.test("TOOL_CALL_TIMEOUT_MS is validated", () => {
  assert.equal(loadConfig({}).toolCallTimeoutMs, 60_000, "the default");
  assert.throws(
    () => testConfig({ TOOL_CALL_TIMEOUT_MS: "10" }),
    /TOOL_CALL_TIMEOUT_MS.*0 \(no deadline\) or at least 1000/,
  );
  assert.equal(testConfig({ TOOL_CALL_TIMEOUT_MS: "0" }).toolCallTimeoutMs, 0);
});

Deno.test("TOOL_CALL_TIMEOUT_MS=0 sets no deadline", async () => {
  const runtime = testRuntime({ env: { TOOL_CALL_TIMEOUT_MS: "0" } });
  assert.equal(toolContext(runtime, { signal: new AbortController().signal, requestId: "4" }).deadline, undefined);
  const timed = testRuntime({ env: { TOOL_CALL_TIMEOUT_MS: "5000" } });
  assert.deepEqual(toolContext(timed, { signal: new AbortController().signal, requestId: "5" }).deadline, {
    ms: 5000,
    setting: "TOOL_CALL_TIMEOUT_MS",
  });
  await runtime.close();
  await timed.close();
});
