/**
 * The process-level guard: an unhandled rejection is logged as an error naming the call it came from (by
 * the call's abort reason, found in the rejection's cause chain), and the process keeps running.
 */
import assert from "node:assert/strict";
import { memoryLogger } from "../../src/core/log.ts";
import { CallRegistry, guardRejections, UNHANDLED_REJECTION } from "../../src/core/rejection_guard.ts";

/** Resolves once the guard has logged `n` records (an unhandled rejection is reported after a turn). */
async function logged(records: unknown[], n: number): Promise<void> {
  for (let i = 0; records.length < n; i++) {
    if (i > 1000) throw new Error("the guard logged nothing");
    await new Promise((r) => setTimeout(r, 1));
  }
}

Deno.test("rejection guard: names the cancelled call a forgotten promise belonged to, and the process lives on", async () => {
  const log = memoryLogger();
  const calls = new CallRegistry();
  const guard = guardRejections(log, calls);
  try {
    const cancelled = new AbortController();
    const other = new AbortController();
    const end = calls.track({ tool: "fetch_content", request: "7", session: "s1", signal: cancelled.signal });
    calls.track({ tool: "search_genes", request: "8", signal: other.signal });
    cancelled.abort(new DOMException("stop", "AbortError"));
    end();
    // A promise nobody awaits, rejecting with an error caused by the call's abort reason.
    Promise.reject(new Error("upstream request cancelled", { cause: cancelled.signal.reason }));
    await logged(log.records, 1);
    assert.equal(guard.caught, 1);
    const [record] = log.records;
    assert.equal(record.level, "error");
    assert.equal(record.msg, UNHANDLED_REJECTION);
    assert.equal(record.tool, "fetch_content");
    assert.equal(record.request, "7");
    assert.equal(record.session, "s1");
    assert.equal(record.matched, "abort reason");
    assert.match(String(record.error), /upstream request cancelled/);
  } finally {
    guard.dispose();
  }
});

Deno.test("rejection guard: with no cancelled call, it names the calls in flight", async () => {
  const log = memoryLogger();
  const calls = new CallRegistry();
  const guard = guardRejections(log, calls);
  try {
    calls.track({ tool: "get_gene", request: "3", signal: new AbortController().signal });
    Promise.reject("a plain string");
    await logged(log.records, 1);
    assert.equal(log.records[0].tool, "get_gene");
    assert.equal(log.records[0].matched, "in flight");
    assert.equal(log.records[0].error, "a plain string");
  } finally {
    guard.dispose();
  }
});
