import assert from "node:assert/strict";
import { buildIndex, normalizeQuery } from "../../../src/sources/pdf/normalize.ts";

/** The original text behind folded[start, end): what a caller would be shown. */
function original(text: string, needle: string): string | undefined {
  const index = buildIndex(text);
  const at = index.text.indexOf(normalizeQuery(needle));
  if (at < 0) return undefined;
  return text.slice(index.from[at], index.to[at + normalizeQuery(needle).length - 1]);
}

Deno.test("buildIndex folds case, including full folding of ß and final sigma", () => {
  assert.equal(buildIndex("Hello WORLD").text, "hello world");
  assert.equal(buildIndex("Straße STRASSE ẞ").text, "strasse strasse ss");
  assert.equal(buildIndex("ΟΔΟΣ οδος").text, "οδοσ οδοσ");
  assert.equal(buildIndex("МАСШТАБ").text, "масштаб");
});

Deno.test("buildIndex applies NFKC: ligatures, full-width forms, Arabic presentation forms, math letters", () => {
  assert.equal(buildIndex("eﬃcient ﬁle ﬂow oﬀ ﬅ").text, "efficient file flow off st");
  assert.equal(buildIndex("Ｆｕｌｌ").text, "full");
  assert.equal(buildIndex("اﻟﻌﺮﺑﻴﺔ").text, "العربية");
  assert.equal(buildIndex("𝐀𝐁c").text, "abc");
});

Deno.test("buildIndex treats composed and decomposed accents alike", () => {
  assert.equal(buildIndex("e\u0301cole").text, buildIndex("école").text);
  assert.equal(original("L'e\u0301cole", "ÉCOLE"), "e\u0301cole");
});

Deno.test("buildIndex collapses every run of white space, page breaks included, to one space", () => {
  assert.equal(buildIndex("a  \t b\n\nc\fd\u00A0e\u3000f").text, "a b c d e f");
  assert.equal(buildIndex("\n\n  lead").text, "lead");
});

Deno.test("buildIndex drops format characters: soft hyphens, zero-width spaces, direction marks", () => {
  assert.equal(buildIndex("soft\u00ADhyphen").text, "softhyphen");
  assert.equal(buildIndex("zero\u200Bwidth \u200Fmark\u200E").text, "zerowidth mark");
});

Deno.test("buildIndex joins words hyphenated at a line or page end", async (t) => {
  await t.step("a hyphen, a line break and a lower-case letter join the word", () => {
    assert.equal(buildIndex("com-\npile it").text, "compile it");
    assert.equal(buildIndex("com- \n  pile").text, "compile");
    assert.equal(buildIndex("com-\fpile").text, "compile");
    assert.equal(buildIndex("com\u00AD\npile").text, "compile");
  });
  await t.step("a compound broken at a line end is joined too (search lets a query hyphen match the break)", () => {
    assert.equal(buildIndex("peer-to-\npeer").text, "peer-topeer");
  });
  await t.step("whatever the case of the second half, or a digit", () => {
    assert.equal(buildIndex("Cite-\nSee").text, "citesee");
    assert.equal(buildIndex("Anglo-\nSaxon").text, "anglosaxon");
    assert.equal(buildIndex("COVID-\n19").text, "covid19");
  });
  await t.step("a hyphen inside a line, after a space or before punctuation is left alone", () => {
    assert.equal(buildIndex("well-known").text, "well-known");
    assert.equal(buildIndex("x -\ny").text, "x - y");
    assert.equal(buildIndex("pre-\n(post)").text, "pre- (post)");
  });
  await t.step("the offset map spans the whole hyphenated word in the original", () => {
    assert.equal(original("we com-\npile it", "compile"), "com-\npile");
  });
});

Deno.test("the offset map sends every folded unit back to the original characters", () => {
  const text = "Eﬃcient  Straße";
  const index = buildIndex(text);
  assert.equal(index.text, "efficient strasse");
  assert.equal(index.from.length, index.text.length);
  assert.deepEqual([...index.from.slice(0, 5)], [0, 1, 1, 1, 2]);
  assert.deepEqual([...index.to.slice(0, 5)], [1, 2, 2, 2, 3]);
  assert.equal(original(text, "ffi"), "ﬃ");
  assert.equal(original(text, "strasse"), "Straße");
  assert.equal(original(text, "t s"), "t  S");
});

Deno.test("buildIndex folds every dash to '-'", () => {
  assert.equal(buildIndex("COVID‐19 1–2 a—b −3 x‑y").text, "covid-19 1-2 a-b -3 x-y");
});

Deno.test("normalizeQuery folds like the text and trims", () => {
  assert.equal(normalizeQuery("  ÉCOLE   Straße \n"), "école strasse");
  assert.equal(normalizeQuery("ﬁ"), "fi");
  assert.equal(normalizeQuery(" \u200B\t"), "");
});

Deno.test("a document longer than one 8 K block folds whole, and a lone surrogate stays itself", () => {
  const word = "Tiered \u2028Kinase\u00A0\t";
  const text = `${word.repeat(3000)}x\uD800y`;
  const index = buildIndex(text);
  assert.equal(index.text, `${"tiered kinase ".repeat(3000)}x\uD800y`);
  assert.equal(index.from.length, index.text.length);
  assert.equal(index.from[index.text.length - 2], text.length - 2);
});
