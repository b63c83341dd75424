/**
 * #23: time a PDF call spends waiting for an extractor process to start counts against the call; the
 * deadline error then says so (and a slow call that waited carries a warning). Driven with a stand-in pool.
 */
import assert from "node:assert/strict";
import type { ToolContext } from "../../../src/context.ts";
import { DeadlineError } from "../../../src/core/errors.ts";
import { ManualClock } from "../../../src/core/clock.ts";
import { invokeTool } from "../../../src/core/invoke.ts";
import { toolContext } from "../../../src/runtime.ts";
import { extractorNote } from "../../../src/tools/pdf/extractor_note.ts";
import { searchPdf } from "../../../src/tools/pdf/search_pdf.ts";
import { testRuntime } from "../../helpers/runtime.ts";
import { drive } from "../../upstream/helpers.ts";
import { tinyPdf } from "../../sources/pdf/tiny_pdf.ts";

/** A context whose shared PDF extractor is a stand-in with the pool fields extractorNote reads. */
function context(pool: { coldJobs: number; startingForMs: number | undefined }, signal: AbortSignal) {
  const shared = (() => ({ pool })) as unknown as ToolContext["shared"];
  return { shared, config: {} as ToolContext["config"], log: {} as ToolContext["log"], signal };
}

Deno.test("a deadline that passes while an extractor is starting names the wait in its message", async () => {
  const controller = new AbortController();
  const pool = { coldJobs: 0, startingForMs: 12_400 as number | undefined };
  let finish!: () => void;
  const noted = extractorNote(
    context(pool, controller.signal),
    () => new Promise<string>((r) => finish = () => r("x")),
  );
  const deadline = new DeadlineError(60_000, "TOOL_CALL_TIMEOUT_MS");
  controller.abort(deadline);
  assert.match(deadline.detail ?? "", /^A PDF extractor process was still starting \(for 13 s: it loads pdf\.js/);
  finish();
  assert.deepEqual(await noted, { value: "x" }, "quick: no warning");
});

Deno.test("a deadline while every extractor is running says nothing about starting", () => {
  const controller = new AbortController();
  const pool = { coldJobs: 0, startingForMs: undefined };
  void extractorNote(context(pool, controller.signal), () => new Promise(() => {}));
  const deadline = new DeadlineError(60_000, "TOOL_CALL_TIMEOUT_MS");
  controller.abort(deadline);
  assert.equal(deadline.detail, undefined);
});

Deno.test("search_pdf's deadline error says the extractor was still starting", async () => {
  const clock = new ManualClock(0);
  const root = await Deno.makeTempDir({ prefix: "pdf_cold_" });
  await Deno.writeFile(`${root}/notice.pdf`, tinyPdf(`A notice written at ${crypto.randomUUID()}`));
  const runtime = testRuntime({ clock, env: { PDF_ROOT: root, TOOL_CALL_TIMEOUT_MS: "60000" } });
  try {
    const ctx = toolContext(runtime, { signal: new AbortController().signal, requestId: "cold" });
    // An extractor whose process never finishes starting (as on a machine at load 50).
    ctx.shared("pdf-extractor", () => ({
      pool: { coldJobs: 1, startingForMs: 58_000 },
      extract: () => new Promise(() => {}),
      close: () => Promise.resolve(),
    }));
    const call = invokeTool(searchPdf, { pdf_name: "notice", query: "notice" }, ctx);
    const result = await drive(clock, call, 1000);
    assert.equal(result.isError, true);
    const error = (result.structuredContent as { error: { message: string } }).error;
    assert.match(
      error.message,
      /^search_pdf did not finish within its 60 s deadline\. A PDF extractor process was still starting \(for 58 s/,
    );
  } finally {
    await runtime.close();
    await Deno.remove(root, { recursive: true });
  }
});
