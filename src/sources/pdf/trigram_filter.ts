/**
 * A Bloom filter of the letter-and-digit trigrams of a document's folded text (normalize.ts): a few
 * kilobytes that say for sure when a document cannot contain a query, so a search over a large library
 * opens only the documents that may. A query whose every run of letters and digits is shorter than three
 * has no trigram: every document may contain it.
 */
import { normalizeQuery } from "./normalize.ts";

const HASHES = 4;
/** Bits per distinct trigram (with 4 hashes: about 0.2 % false positives per trigram). */
const BITS_PER_TRIGRAM = 16;
const MIN_BITS = 1024;
/** 128 KiB at most, so a book's filter stays small (a saturated filter only lets more documents through). */
const MAX_BITS = 1 << 20;

export type TrigramFilter = Uint8Array;

/** The filter of a folded text (the `text` of its SearchIndex). */
export function trigramFilter(folded: string): TrigramFilter {
  const grams = new Set<string>();
  for (const run of runs(folded)) for (let i = 0; i + 3 <= run.length; i++) grams.add(run.slice(i, i + 3));
  let bits = MIN_BITS;
  while (bits < grams.size * BITS_PER_TRIGRAM && bits < MAX_BITS) bits *= 2;
  const filter = new Uint8Array(bits / 8);
  for (const gram of grams) for (const bit of positions(gram, bits)) filter[bit >> 3] |= 1 << (bit & 7);
  return filter;
}

/**
 * A query's trigrams, folded and hashed once: a search over a library tests every document's filter
 * with them, so the query is not folded again per document.
 */
export interface QueryTrigrams {
  /** The two hashes of each trigram ({@link hashes}). */
  readonly h1: Uint32Array;
  readonly h2: Uint32Array;
}

export function queryTrigrams(query: string): QueryTrigrams {
  const grams = new Set<string>();
  for (const run of runs(normalizeQuery(query))) {
    for (let i = 0; i + 3 <= run.length; i++) grams.add(run.slice(i, i + 3));
  }
  const h1 = new Uint32Array(grams.size);
  const h2 = new Uint32Array(grams.size);
  let k = 0;
  for (const gram of grams) [h1[k], h2[k++]] = hashes(gram);
  return { h1, h2 };
}

/** False only when the document whose filter this is cannot contain `query` (folded as search folds it). */
export function mayContain(filter: TrigramFilter, query: string | QueryTrigrams): boolean {
  const { h1, h2 } = typeof query === "string" ? queryTrigrams(query) : query;
  const bits = filter.length * 8;
  for (let g = 0; g < h1.length; g++) {
    for (let k = 0; k < HASHES; k++) {
      const bit = ((h1[g] + Math.imul(k, h2[g])) >>> 0) % bits;
      if (!(filter[bit >> 3] & (1 << (bit & 7)))) return false;
    }
  }
  return true;
}

/** Runs of letters and digits: the parts of a match that folding leaves contiguous in the text. */
function runs(folded: string): string[] {
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Bit positions of a trigram in a filter of `bits` bits (double hashing). */
function positions(gram: string, bits: number): number[] {
  const [h1, h2] = hashes(gram);
  return Array.from({ length: HASHES }, (_, k) => ((h1 + Math.imul(k, h2)) >>> 0) % bits);
}

/** The two FNV-1a-style hashes of a trigram (the second odd), independent of the filter's size. */
function hashes(gram: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < gram.length; i++) {
    const c = gram.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return [h1, (h2 | 1) >>> 0];
}
