/**
 * Whether the text PDFium read deserves a second opinion from pdf.js, and which of the two to keep. PDFium
 * reads most files as well as pdftotext does; its known weak case is a broken ToUnicode CMap, where it
 * gives each glyph a code that is no letter of the document's script (e.g. the two UTF-8 bytes of a
 * Cyrillic letter read as one UTF-16 unit, which lands in the Hangul block) while pdf.js recovers the
 * text from the font. Cheap counts over the pages, no language model: a text is doubtful when it is thin
 * or when a fifth of it is such code; the other engine's text is kept only when it has more good
 * characters.
 */
import { MIN_CHARS_PER_PAGE } from "./text_layer.ts";

/** Share of garbled characters from which a text is doubtful. */
const GARBLED_SHARE = 0.2;

export interface TextScore {
  /** Characters other than white space. */
  chars: number;
  /** Of those, characters that betray a mis-decoded text layer. */
  garbled: number;
}

/**
 * A replacement character, a private-use code, a control character, or a UTF-16 unit whose two bytes
 * form a UTF-8 sequence of two bytes (a lead byte C2–DF, a continuation byte 80–BF).
 */
function isGarbled(code: number): boolean {
  if (code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff) || code < 0x20) return true;
  const high = code >> 8;
  const low = code & 0xff;
  return high >= 0xc2 && high <= 0xdf && low >= 0x80 && low <= 0xbf;
}

export function scoreText(pages: readonly string[]): TextScore {
  let chars = 0;
  let garbled = 0;
  for (const page of pages) {
    for (let i = 0; i < page.length; i++) {
      const code = page.charCodeAt(i);
      if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c) continue;
      chars++;
      if (isGarbled(code)) garbled++;
    }
  }
  return { chars, garbled };
}

/** Whether a text of `pages` pages with this score should be read again by the other engine: thin or garbled. */
export function doubtful(score: TextScore, pages: number): boolean {
  return score.chars < MIN_CHARS_PER_PAGE * pages || garbled(score);
}

/** Whether a fifth of the text is mis-decoded code (a broken ToUnicode CMap). */
export function garbled(score: TextScore): boolean {
  return score.garbled > GARBLED_SHARE * score.chars;
}

/** Whether `second` is the better text: more characters that are not garbled. */
export function better(second: TextScore, first: TextScore): boolean {
  return second.chars - second.garbled > first.chars - first.garbled;
}
