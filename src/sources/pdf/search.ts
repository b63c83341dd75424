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
 * Every occurrence of the folded query, counted, and the first `topk` with about `contextLength`
 * characters around them: half before, half after, clipped at the document's ends. Occurrences do not
 * overlap. A query that folds to nothing matches nothing.
 */
export function searchDocument(doc: PdfDocument, query: string, contextLength: number, topk: number): SearchOutcome {
  const needle = normalizeQuery(query);
  const matches: PdfMatch[] = [];
  if (needle.length === 0) return { total: 0, matches };
  const { from, to } = doc.index;
  let total = 0;
  for (const [at, length] of occurrences(doc.index.text, needle)) {
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
 * [position, length] of each non-overlapping occurrence. A hyphen inside the needle may also match
 * nothing, because line-end hyphenation is undone in the text even inside compounds ("peer-to-\npeer"
 * folds to "peer-topeer"); plain needles use indexOf, the fast path.
 */
function* occurrences(haystack: string, needle: string): Generator<[number, number]> {
  if (!/[^-]-[^-]/.test(needle)) {
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
      yield [at, needle.length];
    }
    return;
  }
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/(?<=[^-])-(?=[^-])/g, "-?");
  for (const match of haystack.matchAll(new RegExp(escaped, "g"))) yield [match.index, match[0].length];
}

/**
 * `text[start, end)` wrapped in `**`, with half of `contextLength` characters before it and half after,
 * clipped at the ends of the text and never cutting a surrogate pair in two.
 */
export function contextAround(text: string, start: number, end: number, contextLength: number): string {
  const half = Math.floor(contextLength / 2);
  let left = Math.max(0, start - half);
  let right = Math.min(text.length, end + (contextLength - half));
  if (left > 0 && isLowSurrogate(text.charCodeAt(left))) left--;
  if (right < text.length && isLowSurrogate(text.charCodeAt(right))) right++;
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
