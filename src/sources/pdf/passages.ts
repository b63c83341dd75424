/**
 * Passages: windows of a document's text around one or more hits. Hits close together share one window
 * listing every hit, so no text is sent twice (three hits in one sentence were three near-identical
 * 2,000-character strings), and a window never grows past its context length (#34) nor a size cap, so one
 * always fits in a tool result. Offsets are UTF-16 positions in the document's text.
 */

/** A hit: `[start, end)` in the document's text. */
export interface Hit {
  start: number;
  end: number;
}

export interface PassageSpan {
  /** `[start, end)` of the passage in the document's text. */
  start: number;
  end: number;
  /** Its hits, in order; a hit longer than its window ends past `end` and is shown cut. */
  hits: Hit[];
  /** Relevance, for ranked (words) queries: higher first. */
  score?: number;
  /** Ranked queries: the passage lies in the document's reference list (ranked below body text). */
  inReferences?: boolean;
}

/** Characters one hit adds to a rendered passage beyond its text: two `**` markers and its listed offset. */
export const HIT_COST = 12;

/** What a passage costs in a result: its text plus its hits' markers and offsets. */
export function passageWeight(start: number, end: number, hits: number): number {
  return end - start + HIT_COST * hits;
}

/**
 * The window of at most `contextLength` characters (markers included) around `text[start, end)`: what is
 * left after the hit goes half before it and half after, and what one side cannot use (at the ends of the
 * text) goes to the other. A hit longer than the allowance gets a window that cuts it (the caller shows
 * "…"). A surrogate pair is never cut in two.
 */
export function windowAround(text: string, start: number, end: number, contextLength: number): [number, number] {
  const room = contextLength - 4 - (end - start);
  if (room < 0) {
    let cut = start + Math.max(0, contextLength - 5);
    if (cut > start && isLowSurrogate(text.charCodeAt(cut))) cut--;
    return [start, cut];
  }
  const before = Math.min(start, Math.floor(room / 2));
  const after = Math.min(text.length - end, room - before);
  let left = start - Math.min(start, before + (room - before - after));
  let right = end + after;
  if (left > 0 && isLowSurrogate(text.charCodeAt(left))) left++;
  if (right < text.length && isLowSurrogate(text.charCodeAt(right))) right--;
  return [left, right];
}

/**
 * Phrase hits (in document order, not overlapping) as passages in document order, each at most
 * `contextLength` characters of text (seed 002; the `**` marks come on top). Hits that cluster share one
 * window listing every offset: a window opens at a hit, takes the hits that fit in it with that hit, and is
 * centred on them; further hits it covers whole join it, and one its edge would cut opens the next window
 * there. So a passage never grows with the number of hits, and `topk` passages are at most `topk` windows.
 * A window's weight (see {@link passageWeight}) stays within `maxWeight`.
 */
export function clusteredPassages(
  text: string,
  hits: Hit[],
  contextLength: number,
  maxWeight: number,
): PassageSpan[] {
  const passages: PassageSpan[] = [];
  const fits = (first: number, last: number) =>
    passageWeight(hits[first].start, hits[last].end, last - first + 1) <= maxWeight;
  let floor = 0;
  for (let first = 0; first < hits.length;) {
    let last = first;
    while (
      last + 1 < hits.length && hits[last + 1].end - hits[first].start <= contextLength - 4 && fits(first, last + 1)
    ) last++;
    let [left, right] = windowAround(text, hits[first].start, hits[last].end, contextLength);
    left = Math.max(left, floor);
    while (last + 1 < hits.length && hits[last + 1].end <= right && fits(first, last + 1)) last++;
    if (last + 1 < hits.length && hits[last + 1].start < right) right = Math.max(hits[last + 1].start, left);
    passages.push({ start: left, end: right, hits: hits.slice(first, last + 1) });
    floor = right;
    first = last + 1;
  }
  return passages;
}

/** The passage's text with every hit wrapped in `**` (a hit cut by the window ends with "…"). */
export function passageText(text: string, span: PassageSpan): string {
  let out = "";
  let at = span.start;
  for (const hit of span.hits) {
    const start = Math.max(hit.start, at);
    if (hit.end > span.end) return `${out}${text.slice(at, start)}**${text.slice(start, span.end)}…**`;
    out += `${text.slice(at, start)}**${text.slice(start, hit.end)}**`;
    at = hit.end;
  }
  return out + text.slice(at, span.end);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
