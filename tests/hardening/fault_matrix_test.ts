/**
 * The quick fault matrix in CI: every fault of scripts/fault_matrix.ts against the first network tool of
 * each toolset (the full matrix covers every tool: `deno run -A scripts/fault_matrix.ts`). Each case must
 * end in a specific error envelope or, for transient faults, the un-faulted result; never an empty or
 * garbage success; no unhandled rejection; other calls keep being served while the fault lasts.
 */
import assert from "node:assert/strict";
import { TOOLSETS } from "../../src/catalog.ts";
import { formatMatrix, formatSummary, QUICK, runFaultMatrix } from "../../scripts/fault_matrix.ts";

const tools = TOOLSETS.flatMap((set) => set.tools.filter((t) => t.annotations.openWorldHint).slice(0, 1)).map((t) =>
  t.name
);

Deno.test({
  name: "fault matrix (quick): one network tool per toolset survives every upstream fault",
  ignore: tools.length === 0,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const report = await runFaultMatrix({ ...QUICK, tools });
    const shown = `${formatMatrix(report)}\n\n${formatSummary(report)}`;

    await t.step("every chosen tool was faulted with every fault", () => {
      const faulted = new Set(report.cases.map((c) => c.tool));
      assert.deepEqual(
        [...faulted].sort(),
        report.baselines.filter((b) => b.prefixes.length).map((b) => b.tool).sort(),
      );
      assert.equal(report.cases.length, faulted.size * report.faults.length);
      assert.ok(report.faults.length >= 20, `${report.faults.length} faults`);
    });

    await t.step("baselines (no fault) succeed, so faulted results can be compared", () => {
      const broken = report.baselines.filter((b) => b.outcome.isError).map((b) => b.tool);
      assert.deepEqual(broken, [], shown);
    });

    await t.step("no case ends in INTERNAL, a thrown protocol error, an empty or a garbage success", () => {
      const failures = report.cases.filter((c) => c.grade === "fail").map((c) =>
        `${c.tool} × ${c.fault}: ${c.problem}`
      );
      assert.deepEqual(failures, [], shown);
    });

    await t.step("storms end in an error envelope with a code, a message and a recovery hint", () => {
      const storms = new Set(report.faults.filter((f) => f.expect === "error").map((f) => f.id));
      const errors = report.cases.filter((c) => storms.has(c.fault) && c.grade === "pass");
      assert.ok(errors.every((c) => c.cell !== "ok"), shown);
    });

    await t.step("the server kept serving healthy calls during every fault", () => {
      assert.deepEqual(report.cases.filter((c) => !c.served).map((c) => `${c.tool} × ${c.fault}: ${c.problem}`), []);
    });

    await t.step("no unhandled promise rejection", () => {
      assert.deepEqual(report.unhandledRejections, []);
    });
  },
});
