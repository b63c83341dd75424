/** The "no text layer" verdict (text_layer.ts) counts exactly the characters a `\s` pattern does not match. */
import assert from "node:assert/strict";
import { assertTextLayer } from "../../../src/sources/pdf/text_layer.ts";
import type { PdfText } from "../../../src/sources/pdf/types.ts";

function hasTextLayer(page: string, images: boolean): boolean {
  try {
    assertTextLayer({ pageCount: 1, first: 1, pages: [page], unreadable: [] } as unknown as PdfText, images);
    return true;
  } catch {
    return false;
  }
}

Deno.test("every UTF-16 code unit counts as text exactly when /\\s/ does not match it", () => {
  for (let code = 0; code < 0x10000; code++) {
    const unit = String.fromCharCode(code);
    assert.equal(hasTextLayer(unit.repeat(16), true), !/\s/.test(unit), `U+${code.toString(16)}`);
  }
});

Deno.test("a page with images needs 16 visible characters; without images one is enough", () => {
  assert.equal(hasTextLayer(" a b c d e f g h i j k l m n o\u00a0", true), false, "15 letters and spaces");
  assert.equal(hasTextLayer("abcdefghijklmnop", true), true);
  assert.equal(hasTextLayer("\u3000a\u2028", false), true);
  assert.equal(hasTextLayer("\u3000\u2028\ufeff", false), false);
});
