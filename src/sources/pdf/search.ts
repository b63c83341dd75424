/**
 * A searchable document (extracted pages + folded index) and the search over it. Offsets are UTF-16
 * positions in the document's text: its pages joined by a form feed, exactly the text the
 * `pdf://files/{name}` resource returns.
 */
import { buildIndex, normalizeQuery, type SearchIndex } from "./normalize.ts";
import type { PdfText, UnreadablePage } from "./types.ts";

/** Page separator in a document's text (as pdftotext writes it). */
export const PAGE_BREAK = "\f";

export interface PdfDocument {
  pageCount: number;
  text: string;
  /** Offset in `text` where each page starts (index 0 = page 1). */
  pageStarts: number[];
  index: SearchIndex;
  /** Pages that could not be read (their text is empty); absent when every page was read. */
  unreadable?: UnreadablePage[];
}

export interface PdfMatch {
  /** Context from the original text with the match wrapped in `**`. */
  context: string;
  page: number;
  offset: number;
}

export interface SearchOutcome {
  total: number;
  matches: PdfMatch[];
}

/** The document's text: its pages joined by {@link PAGE_BREAK}. */
export function documentText(extracted: PdfText): string {
  return extracted.pages.join(PAGE_BREAK);
}

/** A searchable document; `index` may come ready-made from a worker (it must index documentText). */
export function indexDocument(extracted: PdfText, index?: SearchIndex): PdfDocument {
  const pageStarts: number[] = [];
  let at = 0;
  for (const page of extracted.pages) {
    pageStarts.push(at);
    at += page.length + PAGE_BREAK.length;
  }
  const text = documentText(extracted);
  const doc: PdfDocument = { pageCount: extracted.pageCount, text, pageStarts, index: index ?? buildIndex(text) };
  if (extracted.unreadable?.length) doc.unreadable = extracted.unreadable;
  return doc;
}

/** Rough memory held by a document, for the cache budget. */
export function documentBytes(doc: PdfDocument): number {
  return 2 * doc.text.length + 2 * doc.index.text.length + doc.index.from.byteLength + doc.index.to.byteLength +
    8 * doc.pageStarts.length + 256;
}

/**
 * Every occurrence of the folded query, counted, and the first `topk` with at most `contextLength`
 * characters each (see {@link contextAround}). Occurrences do not overlap. A query that folds to nothing
 * matches nothing.
 */
export function searchDocument(doc: PdfDocument, query: string, contextLength: number, topk: number): SearchOutcome {
  const needle = normalizeQuery(query);
  const matches: PdfMatch[] = [];
  if (needle.length === 0) return { total: 0, matches };
  const { from, to } = doc.index;
  let total = 0;
  for (const [at, length] of occurrences(doc, needle)) {
    total++;
    if (matches.length >= topk) continue;
    const start = from[at];
    const end = to[at + length - 1];
    matches.push({
      context: contextAround(doc.text, start, end, contextLength),
      page: pageOf(doc.pageStarts, start),
      offset: start,
    });
  }
  return { total, matches };
}

/**
 * [position, length] of each non-overlapping occurrence in the folded text. The hyphen rule: line-end
 * breaks are joined in the folded text (normalize.ts), so a needle without inner hyphens is a plain
 * substring search (indexOf, the fast path) and finds "CiteSee" in "Cite-⏎See". A hyphen inside the
 * needle matches a hyphen, or a line-end break and nothing else: it is never simply optional, so
 * "multi-lexsum" does not find "multilexsum".
 */
function* occurrences(doc: PdfDocument, needle: string): Generator<[number, number]> {
  const haystack = doc.index.text;
  if (!/[^-]-[^-]/.test(needle)) {
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
      yield [at, needle.length];
    }
    return;
  }
  const pattern = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/(?<=[^-])-(?=[^-])/g, "(-?)");
  const regex = new RegExp(pattern, "dg");
  for (let match = regex.exec(haystack); match; match = regex.exec(haystack)) {
    const spans = match.indices!.slice(1);
    if (spans.every((span) => !span || span[1] > span[0] || isLineEndBreak(doc, span[0]))) {
      yield [match.index, match[0].length];
    } else {
      regex.lastIndex = match.index + 1;
    }
  }
}

/** Whether folded position `at` continues a word joined across a line-end hyphen. */
function isLineEndBreak(doc: PdfDocument, at: number): boolean {
  if (at === 0) return false;
  const gap = doc.text.slice(doc.index.to[at - 1], doc.index.from[at]);
  return /[-\u2010\u2011\u00AD][ \t]*[\n\r\f\u2028\u2029]/.test(gap);
}

/**
 * `text[start, end)` wrapped in `**`, in at most `contextLength` characters in all (markers included):
 * what is left after the hit goes half before it and half after, and what one side cannot use (at the
 * ends of the text) goes to the other. A hit longer than the whole allowance is cut and ends with "…".
 * A surrogate pair is never cut in two.
 */
export function contextAround(text: string, start: number, end: number, contextLength: number): string {
  const room = contextLength - 4 - (end - start);
  if (room < 0) {
    let cut = start + Math.max(0, contextLength - 5);
    if (cut > start && isLowSurrogate(text.charCodeAt(cut))) cut--;
    return `**${text.slice(start, cut)}…**`;
  }
  const before = Math.min(start, Math.floor(room / 2));
  const after = Math.min(text.length - end, room - before);
  let left = start - Math.min(start, before + (room - before - after));
  let right = end + after;
  if (left > 0 && isLowSurrogate(text.charCodeAt(left))) left++;
  if (right < text.length && isLowSurrogate(text.charCodeAt(right))) right--;
  return `${text.slice(left, start)}**${text.slice(start, end)}**${text.slice(end, right)}`;
}

/** 1-based page containing `offset`. */
export function pageOf(pageStarts: number[], offset: number): number {
  let lo = 0;
  let hi = pageStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pageStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
