/**
 * Damaged PDFs built at test time from a valid one (fixtures/pdf/built__three_columns.pdf: two pages, an
 * uncompressed page tree `/Kids [3 0 R 5 0 R]`). Each edit swaps an object number for another of the same
 * length, so every xref offset stays right and only the page tree is broken.
 */
import { fixtureBytes } from "../../helpers/runtime.ts";

const VALID = "pdf/built__three_columns.pdf";

function edited(from: string, to: string): Uint8Array {
  const text = new TextDecoder("latin1").decode(fixtureBytes(VALID));
  if (!text.includes(from)) throw new Error(`${VALID} no longer contains ${from}`);
  return Uint8Array.from(text.replace(from, to), (c) => c.charCodeAt(0));
}

/** Page 1 intact; page 2's entry points back at the page tree's root, so page 2 loops. */
export function secondPageLoops(): Uint8Array {
  return edited("/Kids [3 0 R 5 0 R]", "/Kids [3 0 R 2 0 R]");
}

/** Both entries point back at the root: no page can be read. */
export function everyPageLoops(): Uint8Array {
  return edited("/Kids [3 0 R 5 0 R]", "/Kids [2 0 R 2 0 R]");
}
