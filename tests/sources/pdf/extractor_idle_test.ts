/**
 * An idle extractor is idle: once its job is answered its main thread sleeps until the next request, and the pool
 * ends it after PDF_EXTRACTOR_IDLE_MS. Judged by counts (the main thread's voluntary context switches, processes
 * alive), never by time, so a loaded machine cannot make it pass or fail.
 */
import assert from "node:assert/strict";
import { createPdfExtractor } from "../../../src/sources/pdf/extractor.ts";
import { fixtureBytes } from "../../helpers/runtime.ts";

const LIMITS = { root: "./files", maxPages: 2000, maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000 };

/** Times the main thread of `pid` gave up the CPU on its own (each timer wake-up adds at least one). */
async function mainThreadWakeups(pid: number): Promise<number> {
  // Deno asks for --allow-all to read /proc directly; `cat` needs only --allow-run, which the tests have.
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/task/${pid}/status`] }).output();
  const status = new TextDecoder().decode(out.stdout);
  return Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)![1]);
}

/** /proc (Linux) is where a process's context switches are read. */
const hasProc = Deno.build.os === "linux";

Deno.test({
  name: "an extractor with no job does not wake up: its main thread sleeps until the next request",
  ignore: !hasProc,
  fn: async () => {
    const extractor = createPdfExtractor(LIMITS, { poolSize: 1 });
    try {
      await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"));
      const [pid] = extractor.pool.pids;
      assert.ok(pid, "an extractor process");
      // Let the reply's own bookkeeping settle, then count over two seconds: a 25 ms timer makes ~80 wake-ups.
      await new Promise((r) => setTimeout(r, 500));
      const before = await mainThreadWakeups(pid);
      await new Promise((r) => setTimeout(r, 2000));
      const woke = (await mainThreadWakeups(pid)) - before;
      assert.ok(woke <= 5, `the idle extractor's main thread woke ${woke} times in 2 s`);
      // It still answers the next job at once (the memory watch comes back with work).
      const again = await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"));
      assert.equal(again.pageCount, 3);
    } finally {
      await extractor.close();
    }
  },
});

Deno.test("an idle extractor process is ended after its idle time, and the next job starts a fresh one", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1, idleMs: 1000 });
  try {
    await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"));
    assert.equal(extractor.pool.workers, 1);
    const [pid] = extractor.pool.pids;
    // Wait for the outcome (no slot left), not for a time: poll generously on a loaded machine.
    for (let i = 0; i < 600 && extractor.pool.workers > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(extractor.pool.workers, 0, "the idle slot was ended");
    if (pid && hasProc) {
      const alive = async () =>
        (await new Deno.Command("kill", { args: ["-0", String(pid)], stderr: "null" }).output()).success;
      for (let i = 0; i < 100 && await alive(); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await alive(), false, "the process is gone");
    }
    const again = await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"));
    assert.equal(again.pageCount, 3);
    assert.equal(extractor.pool.spawned, 2);
  } finally {
    await extractor.close();
  }
});

Deno.test("the extractor's idle time is the PDF_EXTRACTOR_IDLE_MS setting, 60 s by default", async () => {
  const { loadConfig } = await import("../../../src/config.ts");
  assert.equal(loadConfig({}).pdf.extractorIdleMs, 60_000);
  assert.equal(loadConfig({ PDF_EXTRACTOR_IDLE_MS: "5000" }).pdf.extractorIdleMs, 5000);
  assert.throws(() => loadConfig({ PDF_EXTRACTOR_IDLE_MS: "soon" }), /PDF_EXTRACTOR_IDLE_MS/);
});
