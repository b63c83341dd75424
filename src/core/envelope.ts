/**
 * The canonical list envelope `{ items, total_count, page_size, next_cursor? }` and its cursor.
 *
 * A cursor is opaque to callers: base64url of `{"v":1,"o":<offset>,"h":"<binding>"}`, where the binding
 * is a hash of the tool name and the arguments that define the result list (the query, not the page size).
 * Replaying a cursor against other arguments is refused with INVALID_INPUT instead of silently paging
 * through a different list. The binding is not a secret: it catches mistakes, it does not authenticate.
 */
import { sha256 } from "./sha256.ts";
import { z } from "./zod.ts";
import { ToolError } from "./errors.ts";
import { type NextCall, nextCall, nextCallSchema } from "./next_call.ts";
import type { Paging } from "./output_budget.ts";

export interface Page<T> {
  items: T[];
  total_count: number;
  page_size: number;
  next_cursor?: string;
  /** The next page's call as data (same arguments, this cursor). */
  next?: NextCall;
}

/**
 * The output schema of a paginated tool.
 * @example const output = paginationEnvelope(z.string().describe("A PMID CURIE"), "PubMed articles");
 */
export function paginationEnvelope<T extends z.ZodType>(item: T, what: string) {
  return z.object({
    items: z.array(item).describe(`${what} on this page, best first`),
    total_count: z.number().int().min(0).describe(`How many ${what} match in total, across all pages`),
    page_size: z.number().int().min(1).describe("The page size that was asked for"),
    next_cursor: z.string().optional().describe(
      "Pass as `cursor` with the same arguments to get the next page; absent on the last page",
    ),
    next: nextCallSchema,
  });
}

/**
 * The schema of a `cursor` input field, described for a model. The description is the same for every tool
 * (tools/list budget, #21); `_tool` is kept so existing call sites need no change.
 */
export function cursorInput(_tool?: string) {
  return z.string().max(512).optional().describe("next_cursor");
}

/**
 * Hashes what defines a result list, so a cursor can be checked against the call it is replayed on.
 * Keys are sorted and undefined values dropped, so argument order and omitted defaults do not matter.
 * Synchronous (#31): the output budget re-issues a cursor for the part of a page it kept, after the handler.
 */
export function cursorBinding(tool: string, args: Record<string, unknown>): string {
  const canonical = JSON.stringify([
    tool,
    Object.keys(args).sort().filter((k) => args[k] !== undefined)
      .map((k) => [k, args[k]]),
  ]);
  return base64url(sha256(canonical).subarray(0, 12));
}

/** A position in a result list: `o` (items before it) and whatever else a tool needs to resume there. */
export interface Position {
  o: number;
}

/** The cursor of an offset (the common case). */
export function encodeCursor(offset: number, binding: string): string {
  return encodePosition({ o: offset }, binding);
}

/**
 * The cursor of any position: base64url of `{"v":1, ...position, "h":binding}`. Tools whose upstream pages by
 * its own cursor put that in the position beside the offset (search_papers: Europe PMC's cursorMark plus how
 * many of that upstream page were already shown).
 */
export function encodePosition(position: Position, binding: string): string {
  return base64url(new TextEncoder().encode(JSON.stringify({ v: 1, ...position, h: binding })));
}

/**
 * The offset a cursor points at: 0 without a cursor; INVALID_INPUT when the cursor is malformed or was
 * issued for other arguments (the recovery hint says to drop it and start over).
 */
export function decodeCursor(cursor: string | undefined, binding: string, tool: string): number {
  return cursor === undefined ? 0 : decodePosition(cursor, binding, tool).o;
}

/** The position a cursor holds, checked as {@link decodeCursor} checks it. */
export function decodePosition(cursor: string, binding: string, tool: string): Position & Record<string, unknown> {
  const rejected = (why: string) =>
    new ToolError(
      "INVALID_INPUT",
      `Invalid input 'cursor': ${why}`,
      `Pass next_cursor exactly as the previous ${tool} call returned it, with the same other arguments; ` +
        "omit cursor to start from the first page.",
      { invalidInput: { field: "cursor", value: cursor.length > 80 ? cursor.slice(0, 80) + "…" : cursor } },
    );
  let decoded: unknown;
  try {
    decoded = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(cursor)));
  } catch {
    throw rejected("not a cursor issued by this server");
  }
  const shape = z.looseObject({ v: z.literal(1), o: z.number().int().min(0), h: z.string() }).safeParse(decoded);
  if (!shape.success) throw rejected("not a cursor issued by this server");
  if (shape.data.h !== binding) throw rejected(`this cursor belongs to a different ${tool} query`);
  const { v: _v, h: _h, ...position } = shape.data;
  return position;
}

/**
 * Assembles a page; `next_cursor` is set only when items remain after this page, and with `call` (the tool
 * and this call's arguments) so is `next`, the call that fetches them.
 */
export function makePage<T>(
  items: T[],
  totalCount: number,
  pageSize: number,
  offset: number,
  binding: string,
  call?: { tool: string; args: Record<string, unknown> },
): Page<T> {
  const page: Page<T> = { items, total_count: totalCount, page_size: pageSize };
  const next = offset + pageSize;
  if (next < totalCount) {
    page.next_cursor = encodeCursor(next, binding);
    if (call) page.next = nextCall(call.tool, call.args, { cursor: page.next_cursor });
  }
  return page;
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error("not base64url");
  const padded = text.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - text.length % 4) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/**
 * How a tool that pages by an offset cursor binds it: the arguments that define its list, by default every
 * argument but `cursor` (a tool whose page size may change between pages names its own).
 */
export interface OffsetPaging {
  tool: string;
  /** Dotted path of the paged list in the result. */
  path: string;
  /** The arguments that define the list; default: every argument but `cursor`. */
  defining?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** Where item `i` of this page sits in the whole list; default: the cursor's offset + i. */
  // deno-lint-ignore no-explicit-any
  positionOf?: (result: any, i: number, args: Record<string, unknown>) => number;
  /** The other page fields rewritten for a page cut to its first `kept` items (counts); default: unchanged. */
  // deno-lint-ignore no-explicit-any
  trim?: (result: any, kept: number, args: Record<string, unknown>) => any;
  /**
   * An item over the budget by itself may be split across pages (its schema requires only its first field):
   * the continuation shows its first field and the rest.
   */
  splitItems?: boolean;
}

/** A cursor's position inside one item the budget split: it goes on at field `f`, after `c` of its characters. */
interface SplitPosition extends Position {
  c?: number;
  f?: string;
}

function definingOf(spec: OffsetPaging, args: Record<string, unknown>): Record<string, unknown> {
  if (spec.defining) return spec.defining(args);
  const { cursor: _cursor, ...rest } = args;
  return rest;
}

function positionIn(spec: OffsetPaging, args: Record<string, unknown>): SplitPosition {
  const cursor = typeof args.cursor === "string" ? args.cursor : undefined;
  if (cursor === undefined) return { o: 0 };
  return decodePosition(cursor, cursorBinding(spec.tool, definingOf(spec, args)), spec.tool) as SplitPosition;
}

/** The offset the call's `cursor` points at (0 without one); INVALID_INPUT for a cursor of another list. */
export function cursorOffset(spec: OffsetPaging, args: Record<string, unknown>): number {
  return positionIn(spec, args).o;
}

/** `next_cursor` and `next` for the page that ends at `end` of `total` items; nothing on the last page. */
export function nextPage(
  spec: OffsetPaging,
  args: Record<string, unknown>,
  end: number,
  total: number,
): { next_cursor?: string; next?: NextCall } {
  if (end >= total) return {};
  return nextAt(spec, args, { o: end });
}

function nextAt(
  spec: OffsetPaging,
  args: Record<string, unknown>,
  position: SplitPosition,
): { next_cursor: string; next: NextCall } {
  const cursor = encodePosition(position, cursorBinding(spec.tool, definingOf(spec, args)));
  return { next_cursor: cursor, next: nextCall(spec.tool, args, { cursor }) };
}

/**
 * The output budget's {@link Paging} of such a tool: the next page starts after the items kept, or, when one
 * item alone is over the budget, inside it (the cursor then also holds the field and the characters shown).
 */
export function offsetPaging(spec: OffsetPaging): Paging {
  const at = (result: unknown, i: number, args: Record<string, unknown>) =>
    spec.positionOf ? spec.positionOf(result, i, args) : cursorOffset(spec, args) + i;
  const trim = (result: Record<string, unknown>, kept: number, args: Record<string, unknown>) =>
    spec.trim ? spec.trim(result, kept, args) : result;
  return {
    argument: "cursor",
    path: spec.path,
    keep: (result, kept, args) => ({
      ...trim(result, kept, args),
      ...nextPage(spec, args, at(result, kept - 1, args) + 1, Infinity),
    }),
    ...(spec.splitItems
      ? {
        split: (result: Record<string, unknown>, field: string, chars: number, args: Record<string, unknown>) => {
          const start = positionIn(spec, args);
          const item = at(result, 0, args);
          const shown = start.o === item && start.f === field ? start.c ?? 0 : 0;
          return { ...trim(result, 1, args), ...nextAt(spec, args, { o: item, f: field, c: shown + chars }) };
        },
        resume: (result: Record<string, unknown>, args: Record<string, unknown>) => {
          const start = positionIn(spec, args);
          if (start.f === undefined) return result;
          const path = spec.path.split(".");
          const list = valueAt(result, path) as Record<string, unknown>[] | undefined;
          if (!list?.length) return result;
          return replaceAt(result, path, [rest(list[0], start.f, start.c ?? 0), ...list.slice(1)]);
        },
      }
      : {}),
  };
}

/** An item from field `field` on (that field's text from character `chars`), after its first field. */
function rest(item: Record<string, unknown>, field: string, chars: number): Record<string, unknown> {
  const [head, ...keys] = Object.keys(item);
  const from = keys.indexOf(field);
  if (from < 0) return item;
  const out: Record<string, unknown> = { [head]: item[head] };
  for (const key of keys.slice(from)) {
    const value = item[key];
    out[key] = key === field && typeof value === "string" ? value.slice(chars) : value;
  }
  return out;
}

function valueAt(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
}

function replaceAt<T>(root: T, path: string[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path;
  const copy = (Array.isArray(root) ? [...root] : { ...root }) as Record<string, unknown>;
  copy[key] = replaceAt(copy[key], rest, value);
  return copy as T;
}
