import assert from "node:assert/strict";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import { mayContain, trigramFilter } from "../../../src/sources/pdf/trigram_filter.ts";

const TEXT = "Low-molecular-weight heparin lowers the risk of deep vein thrombosis in peer-to-\npeer ﬁeld trials.\f" +
  "Page two: Straße, CAFÉ, com-\npile.";

Deno.test("a trigram filter never rules out a query the text contains, however it is written", () => {
  const filter = trigramFilter(buildIndex(TEXT).text);
  for (
    const query of [
      "heparin",
      "deep vein thrombosis",
      "LOW-MOLECULAR-WEIGHT HEPARIN",
      "peer-to-peer",
      "field trials",
      "strasse",
      "café",
      "compile",
      "trials. Page two",
      "in",
    ]
  ) assert.equal(mayContain(filter, query), true, query);
});

Deno.test("a trigram filter rules out queries the text does not contain", () => {
  const filter = trigramFilter(buildIndex(TEXT).text);
  for (const query of ["warfarin", "pulmonary embolism", "aspirin"]) assert.equal(mayContain(filter, query), false);
});

Deno.test("every substring of a longer text passes its filter (no false negatives)", () => {
  const words = "protein binding analysis model network influence nodes gene expression sample".split(" ");
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const text = Array.from({ length: 3000 }, () => words[next() % words.length]).join(" ");
  const filter = trigramFilter(buildIndex(text).text);
  for (let i = 0; i < 500; i++) {
    const at = next() % (text.length - 20);
    const query = text.slice(at, at + 3 + (next() % 17));
    assert.equal(mayContain(filter, query), true, query);
  }
});
