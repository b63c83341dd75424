/**
 * Keeps a result under the 8 MB that invokeTool accepts: trailing items are cut, and the caller gets a
 * notice saying what was left out and how to get it, instead of a PAYLOAD_TOO_LARGE failure for all.
 */
import { MAX_RESULT_BYTES } from "../../core/invoke.ts";

/** Room left for the fields around the list (ids, URLs, the notice itself). */
const ENVELOPE_RESERVE = 256 * 1024;

export interface Budgeted<T> {
  kept: T[];
  omitted: T[];
}

/** Keeps the longest prefix of `items` whose JSON fits in `budget` characters (as invokeTool measures). */
export function fitToBudget<T>(items: readonly T[], budget = MAX_RESULT_BYTES - ENVELOPE_RESERVE): Budgeted<T> {
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += JSON.stringify(items[i]).length + 1;
    if (used > budget) return { kept: items.slice(0, i), omitted: items.slice(i) };
  }
  return { kept: [...items], omitted: [] };
}
