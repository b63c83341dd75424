/**
 * search_papers' cursor (#31): where the next page starts, opaque to callers, re-issued by the output budget
 * for the papers a cut kept.
 *
 * Encoding: an envelope cursor (src/core/envelope.ts, base64url of `{"v":1, ...position, "h":binding}`) whose
 * binding hashes every argument except `count` and `cursor` (so a new filter argument binds by itself), and
 * whose position is
 * - `{ o }` for arXiv and OpenAlex: hits shown before the page (both page by offset upstream);
 * - `{ o, m, s }` for Europe PMC: `m` the cursorMark of the upstream page the next hit is on, `s` how many hits
 *   of that upstream page were already shown (a cut page resumes inside it).
 *
 * A search over several sources keeps one such position per source under `p`, beside the overall `o`:
 * `{ o, p: { arxiv: { o }, europepmc: { o, m, s } } }` — {@link SearchPosition} allows it; a merged search reads
 * and advances each source's position by the hits of that source it kept.
 */
import { cursorBinding, decodePosition, encodePosition } from "../../core/envelope.ts";

export const TOOL = "search_papers";

/** One source's resume point. */
export interface SourcePosition {
  /** Hits of this source shown before the page. */
  o: number;
  /** Europe PMC: cursorMark of the upstream page holding the next hit (`*` for the first). */
  m?: string;
  /** Europe PMC: hits of that upstream page already shown. */
  s?: number;
}

/** Where a page of search_papers starts: one source's position, or (`p`) one per source of a merged search. */
export interface SearchPosition extends SourcePosition {
  p?: Record<string, SourcePosition>;
  /** A merged search: 4-character hashes of the keys of the papers already shown, concatenated (search_all.ts). */
  k?: string;
  /** A merged search: which source (index in the merged order) the next page takes its first hit from. */
  t?: number;
}

/** The arguments a cursor is bound to: everything but the page size and the cursor itself. */
export function searchBinding(args: Record<string, unknown>): string {
  const { count: _count, cursor: _cursor, ...defining } = args;
  return cursorBinding(TOOL, defining);
}

/** Sources that page by their own cursor: their first page starts at this mark. */
const FIRST_MARK: Record<string, string> = { europepmc: "*" };

/** The position `args.cursor` holds (the first page without one); INVALID_INPUT for a foreign cursor. */
export function startOf(args: Record<string, unknown>): SearchPosition {
  const cursor = args.cursor;
  if (typeof cursor === "string") return decodePosition(cursor, searchBinding(args), TOOL) as SearchPosition;
  const mark = FIRST_MARK[String(args.source)];
  return mark === undefined ? { o: 0 } : { o: 0, m: mark, s: 0 };
}

/** The cursor of `position` for these arguments. */
export function cursorAt(args: Record<string, unknown>, position: SearchPosition): string {
  return encodePosition(position, searchBinding(args));
}

/**
 * The position after `shown` hits of a single-source page that started at `start` (a Europe PMC page stays
 * inside its upstream page: the budget cut it, so hits of that upstream page remain).
 */
export function advance(start: SearchPosition, shown: number): SearchPosition {
  if (start.m === undefined) return { o: start.o + shown };
  return { o: start.o + shown, m: start.m, s: (start.s ?? 0) + shown };
}
