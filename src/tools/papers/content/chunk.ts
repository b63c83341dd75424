/**
 * Cuts one page of text for fetch_content. Pages end on a paragraph, line or word boundary when one lies
 * in the last fifth of the window, never inside a UTF-16 surrogate pair, and always advance; so following
 * `next_offset` until it is absent reassembles the text exactly. Offsets count UTF-16 code units
 * (JavaScript string indices).
 */

export interface Chunk {
  text: string;
  offset: number;
  end: number;
}

/** @example chunkText("one two three", 0, 8) // { text: "one two ", offset: 0, end: 8 } */
export function chunkText(text: string, offset: number, maxChars: number): Chunk {
  let end = Math.min(text.length, offset + maxChars);
  if (end < text.length) {
    const floor = offset + Math.floor(maxChars * 0.8);
    const window = text.slice(floor, end);
    for (const sep of ["\n\n", "\n", " "]) {
      const at = window.lastIndexOf(sep);
      if (at >= 0) {
        end = floor + at + sep.length;
        break;
      }
    }
    if (isHighSurrogate(text.charCodeAt(end - 1)) && end - 1 > offset) end -= 1;
  }
  return { text: text.slice(offset, end), offset, end };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
