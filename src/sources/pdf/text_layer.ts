/**
 * Whether an extracted document has a text layer worth searching. A scan without OCR carries at most a
 * stray word or a producer stamp over its page images; a short document (a one-line notice, a label)
 * carries little text and no images. So little text is "no text layer" only when the file holds images,
 * or no text at all.
 */
import { positionsOf } from "./raw_scan.ts";
import { PdfExtractionError, type PdfText } from "./types.ts";

/**
 * Below this many non-blank characters per readable page (on average), a document with images counts as
 * scanned.
 */
export const MIN_CHARS_PER_PAGE = 16;

/** Bytes that may end a PDF name: white space and delimiters. */
const NAME_END = new Set(Array.from(" \t\r\n\f\0/<>[]()%{}", (c) => c.charCodeAt(0)));

/**
 * Whether the file declares an image XObject (`/Subtype /Image`). Image dictionaries are stream
 * dictionaries, which a PDF never compresses into object streams, so the name is in the raw bytes.
 * (Inline images inside compressed content streams are not seen: such scans count by their text only.)
 */
export function hasImageXObject(bytes: Uint8Array): boolean {
  for (const at of positionsOf(bytes, "/Image")) {
    if (at + 6 >= bytes.length || NAME_END.has(bytes[at + 6])) return true;
  }
  return false;
}

/** Rejects documents without a text layer: no text at all, or scanned pages (little text, and images). */
export function assertTextLayer(text: PdfText, images: boolean): void {
  const readable = text.pageCount - (text.unreadable?.length ?? 0);
  // Counted only as far as the verdict needs: one character without images, MIN_CHARS_PER_PAGE a page with them.
  const enough = readable > 0 ? (images ? MIN_CHARS_PER_PAGE * readable : 1) : Infinity;
  let chars = 0;
  for (const page of text.pages) {
    chars += visibleChars(page, enough - chars);
    if (chars >= enough) return;
  }
  throw new PdfExtractionError(
    "no_text",
    `The PDF has no text layer (${chars} characters of text on ${text.pageCount} page(s)` +
      `${images ? ", with images" : ""}): it is probably scanned images. Run OCR on it first ` +
      "(e.g. ocrmypdf in.pdf out.pdf), then search the result.",
    text.pageCount,
  );
}

/**
 * Characters of `page` other than white space, counted without building a copy of it (a book is megabytes), up to
 * `limit` at most.
 */
function visibleChars(page: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < page.length && count < limit; i++) {
    const code = page.charCodeAt(i);
    // The ASCII white space and the Unicode spaces /\s/ matches (no-break, Ogham, en quad to hair, line and
    // paragraph separators, narrow no-break, medium mathematical, ideographic, BOM).
    if (code <= 0x20 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) : isUnicodeSpace(code)) continue;
    count++;
  }
  return count;
}

function isUnicodeSpace(code: number): boolean {
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
