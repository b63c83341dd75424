/**
 * Says when a PDF call waited for an extractor process to start (#23): a fresh process loads pdf.js
 * before it reads anything, seconds on a busy machine, and that time counts against the call. A call
 * that ran out of time while one was starting says so in its deadline error; a call that succeeded after
 * waiting for one, and was slow, carries a warning, so a slow first search is not taken for the server's pace.
 * (Wall time, like the extractor's own budgets: the work is real CPU time in another process.)
 */
import { systemClock } from "../../core/clock.ts";
import { DeadlineError } from "../../core/errors.ts";
import type { ToolContext } from "../../context.ts";
import { workerExtractor } from "../../sources/pdf/extractor.ts";

export interface Noted<T> {
  value: T;
  /** Set when this call's work waited for an extractor to start. */
  note?: string;
}

/** A call this long that waited for an extractor to start says so. */
export const SLOW_CALL_MS = 5_000;

export const STARTED_NOTE = "This call waited for a PDF extractor process to start (the first PDF work after the " +
  "server started or after a pause), so it was slower than the next ones will be.";

export async function extractorNote<T>(
  ctx: Pick<ToolContext, "shared" | "config" | "log" | "signal">,
  work: () => Promise<T>,
): Promise<Noted<T>> {
  const pool = workerExtractor(ctx).pool;
  const coldBefore = pool.coldJobs;
  const started = systemClock.now();
  const onAbort = () => {
    const reason: unknown = ctx.signal.reason;
    const startingFor = pool.startingForMs;
    if (!(reason instanceof DeadlineError) || startingFor === undefined || reason.detail) return;
    reason.detail = `A PDF extractor process was still starting (for ${Math.ceil(startingFor / 1000)} s: it loads ` +
      "pdf.js first, which takes long on a busy machine) and that wait counted against this call; retry in a " +
      "moment, when it is ready.";
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const value = await work();
    const slow = systemClock.now() - started >= SLOW_CALL_MS;
    return slow && pool.coldJobs > coldBefore ? { value, note: STARTED_NOTE } : { value };
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
  }
}
