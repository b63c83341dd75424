/**
 * Spacing accents joined to their letters. TeX and other typesetters draw an accented letter as two glyphs, the
 * letter and a spacing accent placed over (or under) it; PDFium gives the accent as a character of its own,
 * often away from its letter and between spaces of its own making ("Farber ¨ (2019)", "P ´ erez"), where
 * pdftotext gives "Färber", "Pérez". Which letter an accent belongs to is read from the glyph boxes: only for
 * the rare accent characters and the letters under them, so ordinary text costs one scan of the page's string.
 */

/** The page's glyphs, as the text engine (pdfium_engine.ts) knows them; indices are the engine's characters. */
export interface Glyphs {
  /** The engine's character index of the character at `text` index i (code points, not UTF-16 units), or -1. */
  charIndex(textIndex: number): number;
  /** The `text` index (in code points) of character c, or -1. */
  textIndex(charIndex: number): number;
  /** The character's code point. */
  unicode(charIndex: number): number;
  /** The character's glyph box in page points (y upwards), or undefined. */
  box(charIndex: number): Box | undefined;
  /** The character's font size in points (0 when unknown). */
  fontSize(charIndex: number): number;
  /** The character whose box holds (x, y) or lies within `tolerance` of it (each way), or -1. */
  charAt(x: number, y: number, tolerance: number): number;
}

export interface Box {
  left: number;
  right: number;
  bottom: number;
  top: number;
}

/** Each spacing accent and the combining mark it stands for. */
const MARKS: Record<string, string> = {
  "\u00A8": "\u0308", // ¨ diaeresis
  "\u00B4": "\u0301", // ´ acute
  "\u02CA": "\u0301", // ˊ modifier acute
  "\u0060": "\u0300", // ` grave (also a backtick: only over a letter)
  "\u02CB": "\u0300", // ˋ modifier grave
  "\u005E": "\u0302", // ^ circumflex (also a caret: only over a letter)
  "\u02C6": "\u0302", // ˆ modifier circumflex
  "\u007E": "\u0303", // ~ tilde (also a tilde operator: only over a letter)
  "\u02DC": "\u0303", // ˜ small tilde
  "\u00AF": "\u0304", // ¯ macron
  "\u02C9": "\u0304", // ˉ modifier macron
  "\u02D8": "\u0306", // ˘ breve
  "\u02D9": "\u0307", // ˙ dot above
  "\u02DA": "\u030A", // ˚ ring above
  "\u02DD": "\u030B", // ˝ double acute
  "\u02C7": "\u030C", // ˇ caron
  "\u00B8": "\u0327", // ¸ cedilla (below)
  "\u02DB": "\u0328", // ˛ ogonek (below)
};
const BELOW = new Set(["\u00B8", "\u02DB"]);

/** Any of the spacing accents above. */
const ACCENT =
  /[\u00A8\u00B4\u02CA\u0060\u02CB\u005E\u02C6\u007E\u02DC\u00AF\u02C9\u02D8\u02D9\u02DA\u02DD\u02C7\u00B8\u02DB]/;
const ACCENTS = new RegExp(ACCENT.source, "g");
const LETTER = /^\p{L}$/u;
/** Line ends (PDFium's "\r\n", and its soft-hyphen marks, which end a line) end a run of stray spaces. */
// deno-lint-ignore no-control-regex -- U+0002 is an older PDFium's soft-hyphen mark
const LINE_END = /[\r\n\uFFFE\u0002]/;

/**
 * Share of the font size: how far under (over) an accent its letter's body is probed; how far the probe may
 * miss; how far the accent's centre may stand outside its letter's box (italics lean).
 */
const PROBE = 0.2;
const REACH = 0.2;
const LEAN = 0.12;
/**
 * Where an accent's letter is looked for first, in characters from the accent, nearest first: PDFium gives most
 * accents next to their letter or right after its word ("Farber ¨"). Elsewhere costs a search of the page.
 */
const NEAR = [-1, 1, -2, 2, -3, -4, -5, -6, -7, -8];
/** Share of the font size: a gap between two glyph boxes wider than this separates words. */
const WORD_GAP = 0.12;

/** Whether `text` holds a spacing accent at all: the one scan a page without accents costs. */
export function hasSpacingAccent(text: string): boolean {
  return ACCENT.test(text);
}

/**
 * `text` (the page as the engine gave it) with every spacing accent that sits over or under a letter joined to
 * that letter (NFC: "a" + "¨" = "ä"; a dotless ı or ȷ under an accent above becomes i or j) and removed from
 * where it stood, with the spaces it brought: none stays between two glyphs that touch ("P ´ erez" = "Pérez"),
 * one between two words ("Farber ¨ (2019)" = "Färber (2019)"), none at a line end. An accent that is over no
 * letter (a backtick in code, an accent discussed as such) stays as it is.
 */
export function composeAccents(text: string, glyphs: Glyphs): string {
  if (!ACCENT.test(text)) return text;
  const codes = new CodeIndex(text);
  const marks = new Map<number, string>(); // text index of a letter → the marks it receives
  const removed = new Set<number>();
  for (const match of text.matchAll(ACCENTS)) {
    const at = match.index;
    const letter = letterUnder(text, at, glyphs, codes);
    if (letter < 0) continue;
    const mark = MARKS[text[at]];
    const before = marks.get(letter) ?? "";
    // An accent drawn twice (overprinted bold) counts once.
    if (!before.includes(mark)) marks.set(letter, before + mark);
    removed.add(at);
  }
  if (removed.size === 0) return text;

  // Each removed accent with the spaces either side of it (and any removed accent among them) is one run.
  const runs = new Map<number, { end: number; with: string }>();
  for (const at of removed) {
    let start = at;
    while (start > 0 && (text[start - 1] === " " || removed.has(start - 1))) start--;
    if (runs.has(start)) continue;
    let end = at + 1;
    while (end < text.length && (text[end] === " " || removed.has(end))) end++;
    const spaced = text.slice(start, end).includes(" ");
    const inLine = start > 0 && end < text.length && !LINE_END.test(text[start - 1]) && !LINE_END.test(text[end]);
    runs.set(start, { end, with: spaced && inLine && wordGap(text, start - 1, end, glyphs, codes) ? " " : "" });
  }

  const edits = [...new Set([...runs.keys(), ...marks.keys()])].sort((a, b) => a - b);
  const out: string[] = [];
  let copied = 0;
  for (const at of edits) {
    if (at < copied) continue;
    out.push(text.slice(copied, at));
    const run = runs.get(at);
    if (run) {
      out.push(run.with);
      copied = run.end;
      continue;
    }
    const base = String.fromCodePoint(text.codePointAt(at)!);
    out.push(composed(base, marks.get(at)!));
    copied = at + base.length;
  }
  out.push(text.slice(copied));
  return out.join("");
}

/**
 * A letter and its marks as one character where Unicode has one; a dotless ı or ȷ takes its dot back under a
 * mark above.
 */
export function composed(letter: string, marks: string): string {
  let base = letter;
  let rest = marks;
  if ((base === "\u0131" || base === "\u0237") && /[\u0300-\u030F]/.test(marks)) {
    base = base === "\u0131" ? "i" : "j";
    rest = marks.replace("\u0307", ""); // a dot above a dotless i is its dot
  }
  return (base + rest).normalize("NFC");
}

/**
 * The text index of the letter whose glyph the accent at `at` sits over (under, for a cedilla or an ogonek), or
 * -1. The characters nearest the accent in the text are tried first ({@link NEAR}); then the engine's character
 * under the accent's centre, wherever the text has it.
 */
function letterUnder(text: string, at: number, glyphs: Glyphs, codes: CodeIndex): number {
  const accent = glyphs.charIndex(codes.toCodePoints(at));
  if (accent < 0 || glyphs.unicode(accent) !== text.charCodeAt(at)) return -1;
  const box = glyphs.box(accent);
  const size = glyphs.fontSize(accent);
  if (!box || !(size > 0)) return -1;
  const below = BELOW.has(text[at]);
  let letter = NEAR.map((k) => accent + k).find((near) => near >= 0 && sitsOn(box, size, below, near, glyphs));
  if (letter === undefined) {
    const x = (box.left + box.right) / 2;
    const found = glyphs.charAt(x, below ? box.top + PROBE * size : box.bottom - PROBE * size, REACH * size);
    if (found < 0 || found === accent || !sitsOn(box, size, below, found, glyphs)) return -1;
    letter = found;
  }
  const index = glyphs.textIndex(letter);
  if (index < 0) return -1;
  const textAt = codes.toUnits(index);
  return text.codePointAt(textAt) === glyphs.unicode(letter) ? textAt : -1;
}

/**
 * Whether character c is a letter the accent's box sits on: the accent's centre within the letter's box (give or
 * take an italic lean), the accent above the letter's middle and not far over its top (mirrored, below).
 */
function sitsOn(accent: Box, size: number, below: boolean, c: number, glyphs: Glyphs): boolean {
  const letter = String.fromCodePoint(glyphs.unicode(c));
  if (!LETTER.test(letter) || letter in MARKS) return false;
  const under = glyphs.box(c);
  const x = (accent.left + accent.right) / 2;
  if (!under || x < under.left - LEAN * size || x > under.right + LEAN * size) return false;
  const middle = (under.bottom + under.top) / 2;
  return below
    ? accent.top <= middle && accent.top >= under.bottom - size / 2
    : accent.bottom >= middle && accent.bottom <= under.top + size / 2;
}

/**
 * Whether the glyphs at text indices `left` and `right` (the characters either side of a run of stray spaces)
 * stand a word apart: not on one line, or further apart than a letter gap.
 */
function wordGap(text: string, left: number, right: number, glyphs: Glyphs, codes: CodeIndex): boolean {
  const low = text.charCodeAt(left);
  const start = low >= 0xdc00 && low <= 0xdfff && left > 0 ? left - 1 : left;
  const a = glyphs.charIndex(codes.toCodePoints(start));
  const b = glyphs.charIndex(codes.toCodePoints(right));
  const boxA = a < 0 ? undefined : glyphs.box(a);
  const boxB = b < 0 ? undefined : glyphs.box(b);
  if (!boxA || !boxB) return true;
  const size = Math.max(glyphs.fontSize(a), glyphs.fontSize(b));
  const sameLine = Math.min(boxA.top, boxB.top) > Math.max(boxA.bottom, boxB.bottom);
  const gap = boxB.left - boxA.right;
  return !(sameLine && size > 0 && gap > -size / 2 && gap < WORD_GAP * size);
}

/**
 * UTF-16 indices of `text` to code-point indices and back (the engine counts a character outside the BMP
 * once). Identity until the first surrogate pair, which most pages never have.
 */
const PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

class CodeIndex {
  /** UTF-16 index of each surrogate pair's first unit, in order. */
  #pairs: number[] = [];

  constructor(text: string) {
    for (const pair of text.matchAll(PAIRS)) this.#pairs.push(pair.index);
  }

  toCodePoints(units: number): number {
    let n = 0;
    while (n < this.#pairs.length && this.#pairs[n] < units) n++;
    return units - n;
  }

  toUnits(codePoints: number): number {
    let n = 0;
    while (n < this.#pairs.length && this.#pairs[n] - n < codePoints) n++;
    return codePoints + n;
  }
}
