/**
 * Long id lists (AIDs of a target, xrefs of a compound) come whole by default and are paged by what fits
 * in one answer's text budget: a model gets every id, a page at a time, never a silent cut.
 */
import { cursorBinding, decodeCursor, encodeCursor } from "../../core/envelope.ts";

/** Characters of text one answer may carry, until the core's `ctx.outputBudget` is there to say so. */
export const TEXT_BUDGET_CHARS = 24_000;

/** Room kept for the lines around the ids (counts, the next-page line). */
const RESERVE_CHARS = 600;

/** The caller's text budget: `ctx.outputBudget` when the context has one, else {@link TEXT_BUDGET_CHARS}. */
export function textBudget(ctx: object): number {
  const budget = (ctx as { outputBudget?: unknown }).outputBudget;
  return typeof budget === "number" && budget > RESERVE_CHARS ? budget : TEXT_BUDGET_CHARS;
}

/** How many ids from `offset` fit in `budget` characters when written `a, b, c` (at least one). */
export function idsThatFit(ids: readonly (string | number)[], offset: number, budget: number): number {
  let used = 0;
  let n = 0;
  for (let i = offset; i < ids.length; i++) {
    used += String(ids[i]).length + (n ? 2 : 0);
    if (used > budget - RESERVE_CHARS && n > 0) break;
    n++;
  }
  return n;
}

export interface IdPager {
  offset: number;
  /** The cursor of the page that starts at `next`. */
  cursor(next: number): string;
}

/** Reads `cursor` against the arguments that define the list (INVALID_INPUT when it belongs to others). */
export async function idPager(
  tool: string,
  defining: Record<string, unknown>,
  cursor: string | undefined,
): Promise<IdPager> {
  const binding = await cursorBinding(tool, defining);
  return { offset: decodeCursor(cursor, binding, tool), cursor: (next) => encodeCursor(next, binding) };
}
