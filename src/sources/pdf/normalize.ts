/**
 * Search normalisation with an offset map. Text and query go through the same folding, so a query
 * matches however the PDF happened to encode the words; the map sends every unit of the folded text
 * back to the original range it came from, so the context returned to a caller is the document's own.
 *
 * Folding, per character (a base character plus its combining marks):
 * - NFKC: ligatures (ﬁ ﬂ ﬀ ﬃ) become letters, Arabic presentation forms become letters, full-width forms
 *   become ASCII, composed and decomposed accents compare equal;
 * - full case folding, as lower(upper(lower(x))): also ß = ss and final ς = σ;
 * - every run of white space (line ends, page breaks, tabs, no-break spaces) becomes one space;
 * - format characters (soft hyphens, zero-width spaces and joiners, direction marks) vanish;
 * - every dash (hyphen, en and em dash, minus sign) becomes "-";
 * - a hyphen that ends a line after a letter, before a letter or digit, is a line-end break: the two
 *   halves are joined whatever the case of the second ("com-\npile" = "compile", "Cite-\nSee" =
 *   "CiteSee"). A compound broken at its own hyphen ("peer-to-\npeer") then reads "peer-topeer";
 *   search.ts lets a query's hyphen match such a break (and only there), so "peer-to-peer" finds it.
 */

export interface SearchIndex {
  /** The folded text. */
  text: string;
  /** For folded unit i, the original text's range [from[i], to[i]). */
  from: Uint32Array<ArrayBuffer>;
  to: Uint32Array<ArrayBuffer>;
}

const HYPHENS = new Set(["-", "\u2010", "\u2011", "\u00AD"]);
const DASH = /^[\p{Pd}\u2212]$/u;
const LINE_BREAKS = new Set(["\n", "\r", "\f", "\u2028", "\u2029"]);
const SPACE_OR_TAB = /[ \t]/;
const WHITE = /\s/;
const FORMAT = /\p{Cf}/u;
const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Folds a query exactly as {@link buildIndex} folds text, trimmed. */
export function normalizeQuery(query: string): string {
  return buildIndex(query).text.trim();
}

export function buildIndex(original: string): SearchIndex {
  const out = new IndexBuilder(original.length);
  const folded = new Map<string, string>();
  const n = original.length;
  let i = 0;
  while (i < n) {
    const code = original.charCodeAt(i);
    // Fast path: ASCII that no combining mark follows (the bulk of most documents).
    if (code < 0x80 && !(original.charCodeAt(i + 1) >= 0x300)) {
      if (code === 0x2d) {
        const next = lineEndHyphen(original, i);
        if (next > 0) {
          i = next;
          continue;
        }
      }
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        i = whiteRun(original, i, out);
        continue;
      }
      out.push(code >= 0x41 && code <= 0x5a ? code + 32 : code, i, i + 1);
      i++;
      continue;
    }
    const end = clusterEnd(original, i);
    const cluster = original.slice(i, end);
    if (WHITE.test(cluster)) {
      i = whiteRun(original, i, out);
      continue;
    }
    if (FORMAT.test(cluster[0]) && !HYPHENS.has(cluster[0])) {
      i = end;
      continue;
    }
    if (HYPHENS.has(cluster)) {
      const next = lineEndHyphen(original, i);
      if (next > 0) {
        i = next;
        continue;
      }
      if (cluster === "\u00AD") { // a soft hyphen inside a line is invisible
        i = end;
        continue;
      }
    }
    let f = folded.get(cluster);
    if (f === undefined) {
      f = fold(cluster);
      folded.set(cluster, f);
    }
    for (let k = 0; k < f.length; k++) out.push(f.charCodeAt(k), i, end);
    i = end;
  }
  return out.finish();
}

function fold(cluster: string): string {
  if (DASH.test(cluster)) return "-";
  return cluster.normalize("NFKC").toLowerCase().toUpperCase().toLowerCase().normalize("NFKC");
}

/** End of the character starting at i plus its combining marks (surrogate pairs kept whole). */
function clusterEnd(s: string, i: number): number {
  let j = i + ((s.codePointAt(i) ?? 0) > 0xffff ? 2 : 1);
  while (j < s.length && s.charCodeAt(j) >= 0x300) {
    const cp = s.codePointAt(j)!;
    const ch = String.fromCodePoint(cp);
    if (!MARK.test(ch)) break;
    j += ch.length;
  }
  return j;
}

/** Emits one space for the white-space run starting at i (none at the very start); returns its end. */
function whiteRun(s: string, i: number, out: IndexBuilder): number {
  let j = i + 1;
  while (j < s.length && skippableAt(s, j)) j++;
  if (out.length > 0 && !out.endsWithSpace()) out.push(0x20, i, j);
  return j;
}

/** {@link skippable} for the unit at j, without a one-character string for ASCII (most of a document). */
function skippableAt(s: string, j: number): boolean {
  const code = s.charCodeAt(j);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return skippable(s[j]);
}

/**
 * For a hyphen at i that ends a line after a letter and is followed (after the break) by a letter or a
 * digit, the index of that character (where the joined word continues); otherwise 0.
 */
function lineEndHyphen(s: string, i: number): number {
  if (i === 0 || !LETTER.test(charBefore(s, i))) return 0;
  let j = i + 1;
  while (j < s.length && SPACE_OR_TAB.test(s[j])) j++;
  if (j >= s.length || !LINE_BREAKS.has(s[j])) return 0;
  while (j < s.length && WHITE.test(s[j])) j++;
  if (j >= s.length) return 0;
  const next = String.fromCodePoint(s.codePointAt(j)!);
  return LETTER_OR_DIGIT.test(next) ? j : 0;
}

function charBefore(s: string, i: number): string {
  const low = s.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) return s.slice(i - 2, i);
  return s[i - 1];
}

/** Grows the folded text (as UTF-16 code units) and its two offset arrays together. */
class IndexBuilder {
  #units: Uint16Array<ArrayBuffer>;
  #from: Uint32Array<ArrayBuffer>;
  #to: Uint32Array<ArrayBuffer>;
  #length = 0;

  constructor(hint: number) {
    const size = Math.max(16, hint);
    this.#units = new Uint16Array(size);
    this.#from = new Uint32Array(size);
    this.#to = new Uint32Array(size);
  }

  get length(): number {
    return this.#length;
  }

  endsWithSpace(): boolean {
    return this.#length > 0 && this.#units[this.#length - 1] === 0x20;
  }

  push(unit: number, from: number, to: number): void {
    if (this.#length === this.#from.length) this.#grow();
    this.#units[this.#length] = unit;
    this.#from[this.#length] = from;
    this.#to[this.#length] = to;
    this.#length++;
  }

  /**
   * `fromCharCode.apply` over 8 K units at a time: exact (a lone surrogate stays itself, where a UTF-16
   * decoder writes U+FFFD) and ~7× faster than spreading the same units as arguments (30 → 4 ms for a
   * 352-page book).
   */
  finish(): SearchIndex {
    const parts: string[] = [];
    for (let at = 0; at < this.#length; at += 8192) {
      const units = this.#units.subarray(at, Math.min(this.#length, at + 8192));
      parts.push(String.fromCharCode.apply(null, units as unknown as number[]));
    }
    return { text: parts.join(""), from: this.#from.slice(0, this.#length), to: this.#to.slice(0, this.#length) };
  }

  #grow(): void {
    const size = this.#from.length * 2;
    const units = new Uint16Array(size);
    const from = new Uint32Array(size);
    const to = new Uint32Array(size);
    units.set(this.#units);
    from.set(this.#from);
    to.set(this.#to);
    this.#units = units;
    this.#from = from;
    this.#to = to;
  }
}

/**
 * The index of `a + separator + b` from the indexes of `a` and `b` (each as {@link buildIndex} built it),
 * folding again only a window around the junction: from the last word of `a` to the end of the first
 * word of `b`. Folding looks ahead only across white space (line-end hyphens, white runs), so outside
 * that window both indexes are already right; where no safe window exists it folds the whole text.
 * Extractor processes index their own page ranges; this joins them without a second pass over a book.
 */
export function joinIndexes(a: string, ia: SearchIndex, separator: string, b: string, ib: SearchIndex): SearchIndex {
  const text = a + separator + b;
  const start = lastWordStart(a);
  const end = firstWordEnd(b);
  const shift = a.length + separator.length;
  const head = lowerBound(ia.from, start);
  const tail = lowerBound(ib.from, end);
  const safe = start > 0 && end > 0 && tail > 0 && tail < ib.text.length && ib.text[tail] === " " &&
    ib.from[tail] === end && (head === 0 || ia.text[head - 1] === " ");
  if (!safe) return buildIndex(text);
  const middle = buildIndex(text.slice(start, shift + end));
  const units = head + middle.text.length + (ib.text.length - tail);
  const from = new Uint32Array(units);
  const to = new Uint32Array(units);
  from.set(ia.from.subarray(0, head));
  to.set(ia.to.subarray(0, head));
  for (let k = 0; k < middle.text.length; k++) {
    from[head + k] = middle.from[k] + start;
    to[head + k] = middle.to[k] + start;
  }
  for (let k = tail, at = head + middle.text.length; k < ib.text.length; k++, at++) {
    from[at] = ib.from[k] + shift;
    to[at] = ib.to[k] + shift;
  }
  return { text: ia.text.slice(0, head) + middle.text + ib.text.slice(tail), from, to };
}

/** Characters a white run swallows. */
function skippable(ch: string): boolean {
  return WHITE.test(ch) || (FORMAT.test(ch) && !HYPHENS.has(ch));
}

/** Start of the last word of `s` that follows a white-space character; 0 when there is none. */
function lastWordStart(s: string): number {
  let p = s.length;
  while (p > 0 && skippable(s[p - 1])) p--;
  while (p > 0 && !skippable(s[p - 1])) p--;
  return p > 0 && WHITE.test(s[p - 1]) && !MARK.test(s[p] ?? "") ? p : 0;
}

/** Start of the first white run of `s` after a word that does not end with a hyphen; 0 when there is none. */
function firstWordEnd(s: string): number {
  let e = 0;
  while (e < s.length && skippable(s[e])) e++;
  for (; e < s.length; e++) {
    if (WHITE.test(s[e]) && e > 0 && !skippable(s[e - 1]) && !HYPHENS.has(s[e - 1])) return e;
  }
  return 0;
}

/** Number of entries of the non-decreasing `values` below `value`. */
function lowerBound(values: Uint32Array, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
