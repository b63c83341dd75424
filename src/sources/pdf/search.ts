/**
 * A searchable document (extracted pages + folded index) and the search over it. Offsets are UTF-16
 * positions in the document's text: its pages joined by a form feed, exactly the text the
 * `pdf://files/{name}` resource returns.
 */
import { buildIndex, normalizeQuery, type SearchIndex } from "./normalize.ts";
import { clusteredPassages, type Hit, HIT_COST, type PassageSpan } from "./passages.ts";
import { belowReferences } from "./reference_section.ts";
import { parseQuery, type PdfQuery } from "./query.ts";
import { rankedPassages } from "./rank.ts";
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

/**
 * What a search found: passages (see passages.ts) and how many hits the whole document holds. Shared by
 * every caller that asks the same of the same document ({@link searchDocument}), so read-only.
 */
export interface SearchOutcome {
  readonly query: PdfQuery;
  /** Hits in the whole document: phrase occurrences, or occurrences of any of the query's words. */
  readonly total: number;
  /** Every passage: a phrase's in document order, a words query's best first. */
  readonly passages: readonly Readonly<PassageSpan>[];
}

export interface SearchOptions {
  /** Characters of one passage, markers of one hit included (near hits share it, never longer; #34). */
  contextLength: number;
  /** Most a passage may weigh (passageWeight); default: no cap. */
  maxWeight?: number;
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

/** Searches remembered per document (see {@link searchDocument}). */
const RECENT_SEARCHES = 4;
/** Each document's last searches, by query and options; they live and go with the document itself. */
const recentSearches = new WeakMap<PdfDocument, Map<string, SearchOutcome>>();

/**
 * Every passage for `query` (parsed by query.ts): a phrase's hits do not overlap and close ones share a
 * window, in document order; a words query is ranked (rank.ts), passages in a reference list last. A query that folds to nothing matches nothing. The last few outcomes
 * of each document are kept: each page of a paged answer (next_cursor) asks the same search again, and a
 * scan of a 350-page book costs 0.4 ms for a phrase, 1.6 ms ranked.
 */
export function searchDocument(doc: PdfDocument, query: string, options: SearchOptions): SearchOutcome {
  const key = `${options.contextLength}\u0000${options.maxWeight ?? ""}\u0000${query}`;
  let recent = recentSearches.get(doc);
  const known = recent?.get(key);
  if (known) return known;
  const outcome = search(doc, query, options);
  if (!recent) recentSearches.set(doc, recent = new Map());
  recent.set(key, outcome);
  if (recent.size > RECENT_SEARCHES) recent.delete(recent.keys().next().value!);
  return outcome;
}

function search(doc: PdfDocument, query: string, options: SearchOptions): SearchOutcome {
  const parsed = parseQuery(query);
  const maxWeight = options.maxWeight ?? Infinity;
  const contextLength = Math.min(options.contextLength, maxWeight - HIT_COST);
  const needle = normalizeQuery(parsed.phrase);
  const phraseHits: Hit[] = [];
  if (needle.length > 0) {
    const { from, to } = doc.index;
    for (const [at, length] of occurrences(doc, needle)) phraseHits.push({ start: from[at], end: to[at + length - 1] });
  }
  if (parsed.mode === "words") {
    const ranked = rankedPassages(doc, parsed.words, phraseHits, contextLength, maxWeight);
    return { query: parsed, total: ranked.total, passages: belowReferences(doc.text, ranked.passages) };
  }
  return {
    query: parsed,
    total: phraseHits.length,
    passages: clusteredPassages(doc.text, phraseHits, contextLength, maxWeight),
  };
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
