/**
 * The output budget of the pdf tools (#21): the text of one result never exceeds it, whatever the
 * arguments. Passages are capped so one always fits; a page holds as many as fit, and the rest is one
 * cursor away.
 */
import { serverLine } from "../../render/markdown.ts";

/** Characters of text one result may hold when the runtime sets no `outputBudget` (~6k tokens). */
export const DEFAULT_OUTPUT_BUDGET = 24_000;

/** Room a result keeps for its heading, warnings, hint and next-page lines (a query may be 1,000 characters). */
const FRAME_RESERVE = 2_500;

/** The runtime's output budget (`ctx.outputBudget`, set centrally), else {@link DEFAULT_OUTPUT_BUDGET}. */
export function outputBudget(ctx: object): number {
  const budget = (ctx as { outputBudget?: unknown }).outputBudget;
  return typeof budget === "number" && budget > 0 ? budget : DEFAULT_OUTPUT_BUDGET;
}

/** Most a passage may weigh (passages.ts passageWeight) so that one fits in a result with its frame. */
export function passageCap(budget: number): number {
  return Math.max(200, budget - FRAME_RESERVE);
}

/**
 * How many of `lines` (in order) fit in `budget` characters after `frame` characters, one newline each;
 * at least one when any is given (a capped passage always fits, see {@link passageCap}).
 */
export function linesThatFit(frame: number, lines: readonly string[], budget: number): number {
  let used = frame;
  for (let i = 0; i < lines.length; i++) {
    used += lines[i].length + 1;
    if (used > budget) return Math.max(1, i);
  }
  return lines.length;
}

/** The literal call for the next page, as the text block says it. */
export function nextCallLine(tool: string, args: Record<string, unknown>): string {
  return serverLine(`next page: call ${tool} with ${JSON.stringify(args)}`);
}

/** The one line saying the output budget cut a page short, and how to get the rest. */
export function cutLine(shown: number): string {
  return `cut: the output budget ended this page after ${shown}; the next page continues (call below), or ask ` +
    "for a smaller context_length.";
}
