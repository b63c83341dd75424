/**
 * The load script's CI variant (scripts/load_test.ts, `CI`): the HTTP server as `deno task serve` runs it,
 * 10 sessions × 20 cached calls (back to back, then paced), a 3 s soak, 100 abandoned sessions reaped by a
 * 1 s idle timeout. Only what does not depend on the machine's speed is checked: every call succeeds,
 * every abandoned session is reaped, new sessions still open. Latency, throughput and memory are
 * benchmark rows (`deno task bench http_load`), reported, not asserted here.
 */
import assert from "node:assert/strict";
import { CI, formatReport, runLoadTest } from "../../scripts/load_test.ts";

Deno.test({
  name: "HTTP load (CI variant): no errors under concurrent sessions and a steady soak; abandoned sessions are reaped",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const report = await runLoadTest(CI);
    const shown = formatReport(report);
    console.log(shown);

    await t.step("the workload holds cached tools of several toolsets", () => {
      assert.ok(report.workload.calls.length >= 3, shown);
    });
    await t.step("every call of the closed-loop burst and of the paced load succeeded", () => {
      for (const phase of [report.burst, report.load]) {
        assert.equal(phase.calls, CI.sessions * CI.callsPerSession);
        assert.equal(phase.errors, 0, JSON.stringify(phase.errorKinds));
      }
    });
    await t.step("every call of the soak succeeded; each due call was sent or counted as skipped", () => {
      assert.equal(report.soak.errors, 0, JSON.stringify(report.soak.errorKinds));
      assert.equal(report.soak.calls + report.soak.skipped, CI.soakRate * CI.soakSeconds);
      assert.ok(report.soak.calls > 0, shown);
    });
    await t.step("every abandoned session is reaped by the idle timeout, and new sessions still open", () => {
      assert.equal(report.abandon.refused, 0);
      assert.equal(report.abandon.opened, CI.abandon);
      assert.equal(report.abandon.reaped, CI.abandon, shown);
      assert.ok(report.abandon.reopened);
    });
  },
});
