/**
 * Ranked passages for a query of several words (query.ts): every occurrence of a query word (a text word
 * starting with its stem) is a hit; passages are picked best first around the densest clusters of
 * different query words, never overlapping one another, and scored by how many of the query's words they
 * contain, rarer words counting a little more and the whole query in a row a bonus.
 */
import type { SearchIndex } from "./normalize.ts";
import { type Hit, type PassageSpan, passageWeight, windowAround } from "./passages.ts";
import type { QueryWord } from "./query.ts";

/** Letters a text word may have past a query word's stem ("dos" → "dosing", "dosage"). */
const MAX_SUFFIX = 6;

interface WordHit extends Hit {
  /** Index of the query word in the query. */
  word: number;
}

/** What ranking reads of a document (search.ts's PdfDocument): its text and folded index. */
export interface RankedText {
  text: string;
  index: SearchIndex;
}

export interface RankedOutcome {
  /** Occurrences of the query's words in the whole document. */
  total: number;
  /** Best first. */
  passages: PassageSpan[];
}

/**
 * Ranked passages of about `contextLength` characters (each within `maxWeight`, see passageWeight);
 * `phraseHits` are occurrences of the whole query, which earn their passage a bonus.
 */
export function rankedPassages(
  doc: RankedText,
  words: QueryWord[],
  phraseHits: Hit[],
  contextLength: number,
  maxWeight: number,
): RankedOutcome {
  const hits = wordHits(doc, words);
  if (hits.length === 0) return { total: 0, passages: [] };
  const weights = wordWeights(hits, words.length);
  const score = (counts: number[], start: number, end: number): number => {
    let value = containsHit(phraseHits, start, end) ? 1 : 0;
    counts.forEach((n, w) => (value += n > 0 ? 1 + weights[w] : 0));
    return value;
  };

  // Candidate clusters: from each hit, the hits that follow within half a passage (a sliding window).
  const span = Math.max(1, Math.floor(contextLength / 2));
  const candidates: { first: number; last: number; score: number }[] = [];
  const counts = new Array<number>(words.length).fill(0);
  for (let first = 0, last = -1; first < hits.length; first++) {
    if (last < first) counts[hits[last = first].word]++;
    while (last + 1 < hits.length && hits[last + 1].end - hits[first].start <= span) counts[hits[++last].word]++;
    candidates.push({ first, last, score: score(counts, hits[first].start, hits[last].end) });
    counts[hits[first].word]--;
  }
  candidates.sort((a, b) => b.score - a.score || a.first - b.first);

  // Best first: each cluster not yet shown gets its window, clipped so passages never overlap.
  const covered = new Uint8Array(hits.length);
  const chosen: PassageSpan[] = [];
  const byStart: PassageSpan[] = [];
  for (const candidate of candidates) {
    if (covered[candidate.first]) continue;
    const at = hits[candidate.first].start;
    const slot = insertionPoint(byStart, at);
    const floor = slot > 0 ? byStart[slot - 1].end : 0;
    const ceiling = slot < byStart.length ? byStart[slot].start : doc.text.length;
    let last = candidate.first;
    for (let k = candidate.first + 1; k <= candidate.last && hits[k].end <= ceiling; k++) last = k;
    const markers = 4 * (last - candidate.first);
    let [start, end] = windowAround(doc.text, at, hits[last].end, contextLength - markers);
    start = Math.max(start, floor);
    end = Math.min(Math.max(end, hits[candidate.first].end), ceiling);
    // A hit the window edge would cut is taken whole (windows never split a hit).
    const firstInside = firstHitEndingAfter(hits, start);
    if (firstInside < hits.length && hits[firstInside].start < start) start = hits[firstInside].start;
    const straddling = firstHitEndingAfter(hits, end);
    if (straddling < hits.length && hits[straddling].start < end) end = hits[straddling].end;
    const inside: WordHit[] = [];
    for (let k = firstHitEndingAfter(hits, start); k < hits.length && hits[k].end <= end; k++) {
      if (passageWeight(start, hits[k].end, inside.length + 1) > maxWeight && k > candidate.first) {
        end = hits[k].start;
        break;
      }
      inside.push(hits[k]);
      covered[k] = 1;
    }
    const passage: PassageSpan = {
      start,
      end,
      hits: inside.map(({ start, end }) => ({ start, end })),
      score: score(countWords(inside, words.length), start, end),
    };
    chosen.push(passage);
    byStart.splice(insertionPoint(byStart, start), 0, passage);
  }
  chosen.sort((a, b) => b.score! - a.score! || a.start - b.start);
  return { total: hits.length, passages: chosen };
}

/** Every text word starting with a query word's stem, in order; overlapping matches keep the first. */
function wordHits(doc: RankedText, words: QueryWord[]): WordHit[] {
  const { text, from, to } = doc.index;
  const all: WordHit[] = [];
  words.forEach((w, word) => {
    const extra = w.stem === w.word ? 2 : w.word.length - w.stem.length + MAX_SUFFIX;
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${escapeRegex(w.stem)}\\p{L}{0,${extra}}(?![\\p{L}\\p{N}])`,
      "gu",
    );
    for (const match of text.matchAll(pattern)) {
      const at = match.index;
      all.push({ start: from[at], end: to[at + match[0].length - 1], word });
    }
  });
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const hits: WordHit[] = [];
  for (const hit of all) if (hits.length === 0 || hit.start >= hits[hits.length - 1].end) hits.push(hit);
  return hits;
}

/** Per query word, a weight in [0, 1): rarer words weigh more, and all of them together less than one word. */
function wordWeights(hits: WordHit[], count: number): number[] {
  const counts = countWords(hits, count);
  const most = Math.max(...counts);
  const raw = counts.map((n) => (n === 0 ? 0 : Math.log(1 + most / n)));
  const sum = raw.reduce((a, b) => a + b, 0) || 1;
  return raw.map((r) => (0.9 * r) / sum);
}

function countWords(hits: WordHit[], count: number): number[] {
  const counts = new Array<number>(count).fill(0);
  for (const hit of hits) counts[hit.word]++;
  return counts;
}

/** Whether one of `hits` (in order) lies wholly within `[start, end)`. */
function containsHit(hits: Hit[], start: number, end: number): boolean {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hits[mid].start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < hits.length && hits[lo].end <= end;
}

/** Index of the first hit that ends after `offset` (hits are in order and do not overlap). */
function firstHitEndingAfter(hits: Hit[], offset: number): number {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hits[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where a passage starting at `offset` goes in `spans` (sorted by start). */
function insertionPoint(spans: PassageSpan[], offset: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].start <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
