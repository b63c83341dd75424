/** positionsOf finds every occurrence of a name in raw bytes, at any position, alignment and byte order of the view. */
import assert from "node:assert/strict";
import { positionsOf } from "../../../src/sources/pdf/raw_scan.ts";

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Every start of `needle` in `text`, by a plain scan. */
function expected(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) out.push(at);
  return out;
}

Deno.test("positionsOf finds a name at the start, at the end, at both parities and back to back", () => {
  const text = "/Count 3 x/Count 12\n//Count/Count\u00ff\u0000/Cou/Count";
  for (const shift of [0, 1, 2, 3]) {
    // The same bytes seen through a view at each byte offset of its buffer (odd ones are not 16-bit aligned).
    const buffer = new Uint8Array(text.length + shift);
    buffer.set(latin1(text), shift);
    const view = buffer.subarray(shift);
    assert.deepEqual(
      [...positionsOf(view, "/Count")].sort((a, b) => a - b),
      expected(text, "/Count"),
      `shift ${shift}`,
    );
  }
});

Deno.test("positionsOf agrees with a plain scan on random bytes salted with the name", () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
  for (let round = 0; round < 20; round++) {
    const chars = Array.from({ length: 3000 }, () => String.fromCharCode(next()));
    for (let k = 0; k < 15; k++) chars.splice(next() * 11, 0, "/Image");
    const text = chars.join("");
    assert.deepEqual([...positionsOf(latin1(text), "/Image")].sort((a, b) => a - b), expected(text, "/Image"));
  }
});

Deno.test("positionsOf finds nothing in bytes too short for the name, and refuses a name too short to search", () => {
  assert.deepEqual([...positionsOf(latin1("/Coun"), "/Count")], []);
  assert.deepEqual([...positionsOf(new Uint8Array(0), "/Count")], []);
  assert.throws(() => [...positionsOf(latin1("/Type"), "/Type")], RangeError);
});
