/**
 * One output budget for every tool result (#21): the text a model reads never exceeds it, whatever the
 * arguments. Tools size their pages with it (`ctx.outputBudget`); invokeTool applies {@link fitToBudget} as the
 * final guard, cutting structuredContent and its text together and saying in one line how to get the rest.
 * A tool that pages declares its {@link Paging}: then the cut and the next call are decided here together,
 * from what was kept (#31), so following the next-page line after a cut never skips a record or a character.
 */
import { unmarked } from "../render/markdown.ts";
import { type NextCall, nextCallLine } from "./next_call.ts";

export { DEFAULT_OUTPUT_MAX_CHARS, MIN_OUTPUT_MAX_CHARS } from "./output_limits.ts";

/** What a cut removed, as a tool describes how to get it back. */
export interface OutputCut {
  /** Dotted path of the list or text that was cut (`articles`, `text`). */
  path: string;
  /** Items (or characters of a text) kept and there were. */
  kept: number;
  /** How many there were before the cut. */
  total: number;
  /** What `kept` and `total` count. */
  unit: "items" | "characters";
  /** The removed items themselves (for a list), so a tool can name their ids. */
  omitted: unknown[];
}

/** How to get what a cut removed: one sentence naming the argument (offset, cursor, narrower ids). */
export type RestHint = (cut: OutputCut) => string | undefined;

/**
 * How a tool pages. The budget cuts only the paged list (or text) at `path`, keeping its first items
 * (characters), and `keep` rewrites the page fields to describe what was kept, so the next position, the
 * `next` call, returned counts and "last page" are true of the kept part and the next page starts right after it.
 */
// deno-lint-ignore no-explicit-any
export interface Paging<R = any, A = Record<string, unknown>> {
  /** The argument the next call changes: `cursor`, or a seed's own (`offset`). */
  argument: string;
  /** Dotted path of the paged list or text (`papers`, `items`, `text`). */
  path: string;
  /**
   * `result`, whose list (text) at `path` now holds only its first `kept` items (characters), with every page
   * field rewritten for that: next position and `next` (always present after a cut), returned counts.
   */
  keep(result: R, kept: number, args: A): R;
  /**
   * When one item alone is over the budget: `result` holds only the part of that item that fits (its first
   * field, then its fields up to `field`, of which a text shows its first `chars` characters); the page fields
   * must continue inside the item, at `field`.
   */
  split?(result: R, field: string, chars: number, args: A): R;
  /** A fresh page of a call whose cursor continues inside an item: the item's first field, then the rest of it. */
  resume?(result: R, args: A): R;
}

/** The call a result answers: its parsed arguments, the names of every argument the tool takes, how it pages. */
export interface CallShape {
  args: Record<string, unknown>;
  names: readonly string[];
  paging?: Paging;
}

export interface Fitted {
  structured: Record<string, unknown>;
  text: string;
  cut?: OutputCut;
}

/** Room kept for the one-line cut notice. */
const NOTICE_RESERVE = 600;
/** Marks where a cut text ends. */
export const CUT_MARK = "…";

/**
 * The result as it fits in `budget` characters of text. Within budget it is returned unchanged; otherwise the
 * list holding the most characters loses trailing items (or, with no list to cut, the longest text is
 * shortened) until the rendered text fits, and the text ends with a line saying what was cut and how to get
 * it. The structured copy is cut the same way, so the two never disagree.
 */
export function fitToBudget(
  structured: Record<string, unknown>,
  render: (structured: Record<string, unknown>) => string,
  budget: number,
  rest?: RestHint,
  call: CallShape = { args: {}, names: [] },
): Fitted {
  const text = render(structured);
  if (text.length <= budget) return { structured, text };
  const paged = call.paging && fitPage(structured, render, budget, call.paging, call.args);
  if (paged) return paged;
  // The notice may name what was left out (ids), so its length depends on the cut: cut, then cut again with
  // the room the notice really needs, at most a quarter of the budget.
  let reserve = NOTICE_RESERVE;
  let fitted = shrink(structured, render, budget - reserve);
  let notice = cutNotice(fitted.cut, budget, rest, call);
  for (let round = 0; round < 3 && notice.length + 1 > reserve; round++) {
    reserve = Math.min(notice.length + 101, Math.floor(budget / 4));
    fitted = shrink(structured, render, budget - reserve);
    notice = cutNotice(fitted.cut, budget, rest, call);
  }
  notice = notice.length + 1 > reserve ? `${notice.slice(0, reserve - 2)}${CUT_MARK}` : notice;
  let body = render(fitted.structured);
  const left = budget - notice.length - 1;
  if (body.length > left) body = body.slice(0, left - CUT_MARK.length) + CUT_MARK; // no structure left to cut
  return { structured: fitted.structured, text: `${body}\n${notice}`, cut: fitted.cut };
}

/**
 * The page cut to what fits, its page fields rewritten by the tool from what was kept, and one line that says
 * so and gives the next call. Undefined when even one item (or a few characters) of the page does not fit:
 * then the general cut applies.
 */
function fitPage(
  structured: Record<string, unknown>,
  render: (structured: Record<string, unknown>) => string,
  budget: number,
  paging: Paging,
  args: Record<string, unknown>,
): Fitted | undefined {
  const path = paging.path.split(".");
  const whole = getAt(structured, path) as unknown[] | string | undefined;
  if (whole === undefined || whole.length === 0) return undefined;
  if (typeof whole !== "string" && whole.length === 1) return splitItem(structured, render, budget, paging, args);
  if (whole.length < 2) return undefined;
  const unit = typeof whole === "string" ? "characters" : "items";
  const view = (kept: number) => {
    const part = typeof whole === "string" ? whole.slice(0, textEnd(whole, kept)) : whole.slice(0, kept);
    const result = paging.keep(setAt(structured, path, part), part.length, args);
    return { result, part };
  };
  const notice = (result: Record<string, unknown>, kept: number) => {
    const what = unit === "items"
      ? `showing ${kept} of ${whole.length} ${paging.path}`
      : `${paging.path} cut to ${kept} of ${whole.length} characters`;
    // The next call inside the notice's sentence, without the mark that keeps a line of its own unfenced.
    const next = unmarked(nextCallLine(result.next as NextCall | undefined, paging.argument)) ??
      "the next page line above continues after it.";
    return `cut: ${what} to stay within the ${budget.toLocaleString("en-US")}-character output budget; ${next}`;
  };
  const size = (kept: number) => {
    const { result, part } = view(kept);
    return render(result).length + 1 + notice(result, part.length).length;
  };
  if (size(1) > budget) {
    return typeof whole === "string" ? undefined : splitItem(structured, render, budget, paging, args);
  }
  // The most items (characters) whose page, with its notice, fits: binary search over the kept count.
  let lo = 1;
  let hi = whole.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const { result, part } = view(lo);
  const cut: OutputCut = {
    path: paging.path,
    kept: part.length,
    total: whole.length,
    unit,
    omitted: typeof whole === "string" ? [] : whole.slice(part.length),
  };
  return { structured: result, text: `${render(result)}\n${notice(result, part.length)}`, cut };
}

/**
 * One item over the budget by itself: it is shown up to where it fits — its first field (its id) always, then
 * its fields in order, the last one shown cut inside its text — and the tool's `split` makes the next call
 * continue from there, so the item arrives whole over several pages.
 */
function splitItem(
  structured: Record<string, unknown>,
  render: (structured: Record<string, unknown>) => string,
  budget: number,
  paging: Paging,
  args: Record<string, unknown>,
): Fitted | undefined {
  if (!paging.split) return undefined;
  const path = paging.path.split(".");
  const list = getAt(structured, path) as unknown[];
  const item = list[0];
  if (!item || typeof item !== "object" || Array.isArray(item)) return undefined;
  const [head, ...rest] = Object.keys(item);
  const fields = item as Record<string, unknown>;
  // Each field weighs its characters when it is a text (it can be cut inside), else 1 (shown whole or not).
  const weights = rest.map((key) => typeof fields[key] === "string" ? Math.max(1, (fields[key] as string).length) : 1);
  const units = weights.reduce((a, b) => a + b, 0);
  const upTo = (n: number) => {
    const shown: Record<string, unknown> = { [head]: fields[head] };
    let left = n;
    for (const [i, key] of rest.entries()) {
      if (left >= weights[i]) {
        shown[key] = fields[key];
        left -= weights[i];
        continue;
      }
      const value = fields[key];
      if (typeof value !== "string" || left === 0) return { shown, field: key, chars: 0 };
      const end = textEnd(value, left);
      shown[key] = value.slice(0, end);
      return { shown, field: key, chars: end };
    }
    return { shown, field: head, chars: 0 };
  };
  const view = (n: number) => {
    const cut = upTo(n);
    return { ...cut, result: paging.split!(setAt(structured, path, [cut.shown]), cut.field, cut.chars, args) };
  };
  const notice = (result: Record<string, unknown>, field: string) => {
    const next = unmarked(nextCallLine(result.next as NextCall | undefined, paging.argument)) ?? "";
    return `cut: showing ${paging.path} 1 of ${list.length} up to its ${field} to stay within the ` +
      `${budget.toLocaleString("en-US")}-character output budget; the rest of it follows: ${next}`;
  };
  const size = (n: number) => {
    const { result, field } = view(n);
    return render(result).length + 1 + notice(result, field).length;
  };
  if (units < 2 || size(1) > budget) return undefined;
  let lo = 1;
  let hi = units - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const { result, field } = view(lo);
  const cut: OutputCut = { path: paging.path, kept: 1, total: list.length, unit: "items", omitted: list.slice(1) };
  return { structured: result, text: `${render(result)}\n${notice(result, field)}`, cut };
}

/** Where a text page of about `kept` characters ends: after the last line break or space in its last tenth. */
function textEnd(text: string, kept: number): number {
  if (kept >= text.length) return text.length;
  const floor = Math.max(1, kept - Math.ceil(kept / 10));
  const line = text.lastIndexOf("\n", kept - 1);
  if (line + 1 >= floor) return line + 1;
  const space = text.lastIndexOf(" ", kept - 1);
  return space + 1 >= floor ? space + 1 : kept;
}

/** Cuts lists first (whole records are worth more than cut ones), then texts, until the text fits `room`. */
function shrink(
  structured: Record<string, unknown>,
  render: (structured: Record<string, unknown>) => string,
  room: number,
): { structured: Record<string, unknown>; cut?: OutputCut } {
  let current = structured;
  let cut: OutputCut | undefined;
  for (let round = 0; round < 64; round++) {
    const target = largest(current);
    if (!target) break;
    const step = target.kind === "list"
      ? cutList(current, target.path, render, room)
      : cutText(current, target.path, render, room);
    current = step.structured;
    cut ??= step.cut;
    if (render(current).length <= room) break;
  }
  return { structured: current, cut };
}

/** The one line that says a result was cut and how to get the rest. */
export function cutNotice(
  cut: OutputCut | undefined,
  budget: number,
  rest?: RestHint,
  call: CallShape = { args: {}, names: [] },
): string {
  const what = !cut
    ? "this answer was cut"
    : cut.unit === "items"
    ? `showing ${cut.kept} of ${cut.total} ${cut.path}`
    : `${cut.path} cut to ${cut.kept} of ${cut.total} characters`;
  const how = (cut && rest?.(cut)) ?? genericRest(cut, call);
  return `cut: ${what} to stay within the ${budget.toLocaleString("en-US")}-character output budget; ${how}`;
}

/** Arguments that count the records of a result, and arguments that size each record, by the tools' names. */
const COUNT_ARGUMENTS = [
  "count",
  "limit",
  "page_size",
  "maxResults",
  "maxRecords",
  "maxPerType",
  "maxRelatedResults",
  "fetchBriefSummaries",
  "topk",
  "per_file",
];
const LENGTH_ARGUMENTS = ["max_chars", "context_length"];

/**
 * The rest of a cut result: the size argument the call used, lowered to what fitted (then paging, where the
 * tool pages, reaches the rest), else the ids of the omitted records, else a plain "ask for less".
 */
function genericRest(cut: OutputCut | undefined, call: CallShape): string {
  const used = (keys: string[]) => keys.filter((key) => typeof call.args[key] === "number");
  const counts = used(COUNT_ARGUMENTS);
  const lengths = used(LENGTH_ARGUMENTS);
  const paging = ["cursor", "offset"].find((key) => call.names.includes(key));
  const then = paging ? `, then page on with ${paging}` : "";
  const smaller = lengths.length ? `a smaller ${lengths.join(" or ")}` : "";
  if (cut?.unit === "items" && (counts.length || smaller)) {
    const fewer = counts.length ? `${counts.join(" or ")} at most ${cut.kept}` : "";
    return `call again with ${[fewer, smaller].filter(Boolean).join(" and ")}${then}.`;
  }
  if (cut?.unit === "characters" && smaller) return `call again with ${smaller}${then}.`;
  if (cut?.unit === "items") {
    const ids = cut.omitted.map(idOf).filter((id): id is string => id !== undefined);
    if (ids.length === cut.omitted.length && ids.length > 0) {
      const shown = ids.length > 20 ? `${ids.slice(0, 20).join(", ")}, …` : ids.join(", ");
      return `ask for the rest in a further call: ${shown}`;
    }
  }
  return "ask for less (a smaller count or limit, fewer ids, a narrower query) to see the rest.";
}

/** The id a record is known by, when it has one. */
function idOf(item: unknown): string | undefined {
  if (typeof item === "string" || typeof item === "number") return String(item);
  if (!item || typeof item !== "object") return undefined;
  const record = item as Record<string, unknown>;
  for (const key of ["id", "pmid", "cid", "sid", "aid", "pmcid", "doi", "name"]) {
    const value = record[key];
    if (typeof value === "string" || typeof value === "number") return String(value);
  }
  return undefined;
}

interface Target {
  kind: "list" | "text";
  path: (string | number)[];
  size: number;
}

/** The list (of two items or more) or text holding the most characters, anywhere in the result. */
function largest(value: unknown, path: (string | number)[] = []): Target | undefined {
  let best: Target | undefined;
  const consider = (t: Target | undefined) => {
    if (t && (!best || t.size > best.size)) best = t;
  };
  if (typeof value === "string" && value.length > 200) consider({ kind: "text", path, size: value.length });
  else if (Array.isArray(value)) {
    const size = JSON.stringify(value).length;
    if (value.length > 1) consider({ kind: "list", path, size });
    value.forEach((item, i) => consider(largest(item, [...path, i])));
  } else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) consider(largest(v, [...path, key]));
  }
  return best;
}

function cutList(
  structured: Record<string, unknown>,
  path: (string | number)[],
  render: (s: Record<string, unknown>) => string,
  room: number,
): { structured: Record<string, unknown>; cut: OutputCut } {
  const list = getAt(structured, path) as unknown[];
  // The most items (at least one) whose rendering fits: binary search over the kept count.
  let lo = 1;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(setAt(structured, path, list.slice(0, mid))).length <= room) lo = mid;
    else hi = mid - 1;
  }
  const kept = Math.max(1, lo);
  return {
    structured: setAt(structured, path, list.slice(0, kept)),
    cut: { path: path.join("."), kept, total: list.length, unit: "items", omitted: list.slice(kept) },
  };
}

function cutText(
  structured: Record<string, unknown>,
  path: (string | number)[],
  render: (s: Record<string, unknown>) => string,
  room: number,
): { structured: Record<string, unknown>; cut: OutputCut } {
  const text = getAt(structured, path) as string;
  const over = render(structured).length - room;
  const keep = Math.max(0, text.length - over - CUT_MARK.length);
  return {
    structured: setAt(structured, path, text.slice(0, keep) + CUT_MARK),
    cut: { path: path.join("."), kept: keep, total: text.length, unit: "characters", omitted: [] },
  };
}

function getAt(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

/** A copy of `root` with the value at `path` replaced; untouched branches are shared. */
function setAt<T>(root: T, path: (string | number)[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path;
  const copy = (Array.isArray(root) ? [...root] : { ...root }) as Record<string | number, unknown>;
  copy[key] = setAt(copy[key], rest, value);
  return copy as T;
}
