import assert from "node:assert/strict";
import fc from "fast-check";
import { buildIndex, joinIndexes } from "../../../src/sources/pdf/normalize.ts";

const PIECES = [
  "a",
  "B",
  "-",
  "\n",
  " ",
  "\f",
  "\t",
  "\u00AD",
  "é",
  "e\u0301",
  "ﬁ",
  "\u200B",
  "1",
  "𝐀",
  "ß",
  "–",
  ".",
  "\u00A0",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(""));

Deno.test("joinIndexes gives exactly the index of the joined text, junction folding included", () => {
  fc.assert(
    fc.property(text, text, fc.constantFrom("\f", "\f\f"), (a, b, separator) => {
      const joined = joinIndexes(a, buildIndex(a), separator, b, buildIndex(b));
      const whole = buildIndex(a + separator + b);
      assert.equal(joined.text, whole.text);
      assert.deepEqual([...joined.from], [...whole.from]);
      assert.deepEqual([...joined.to], [...whole.to]);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("joinIndexes joins a word hyphenated across the junction, whatever the case after it", () => {
  const a = "the last line ends with com-";
  const b = "Pile and more text";
  const joined = joinIndexes(a, buildIndex(a), "\f", b, buildIndex(b));
  assert.equal(joined.text, "the last line ends with compile and more text");
});
