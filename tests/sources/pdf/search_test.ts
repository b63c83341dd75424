import assert from "node:assert/strict";
import { contextAround, indexDocument, pageOf, searchDocument } from "../../../src/sources/pdf/search.ts";

const doc = indexDocument({
  pageCount: 3,
  pages: ["Alpha beta gamma.\nThe ﬁrst page ends with a hyphen-\n", "ated word and beta again.", "Last page: BETA."],
});

Deno.test("indexDocument joins pages with a form feed and records where each page starts", () => {
  assert.equal(doc.text.split("\f").length, 3);
  assert.deepEqual(doc.pageStarts, [0, 53, 79]);
  assert.equal(doc.text.slice(doc.pageStarts[2], doc.pageStarts[2] + 4), "Last");
});

Deno.test("searchDocument finds every occurrence, case-insensitively, in document order", () => {
  const found = searchDocument(doc, "Beta", 0, 10);
  assert.equal(found.total, 3);
  assert.deepEqual(found.matches.map((m) => m.context), ["**beta**", "**beta**", "**BETA**"]);
  assert.deepEqual(found.matches.map((m) => m.page), [1, 2, 3]);
  for (const m of found.matches) assert.equal(doc.text.slice(m.offset, m.offset + 4).toLowerCase(), "beta");
});

Deno.test("searchDocument caps the matches at topk but counts them all", () => {
  const found = searchDocument(doc, "beta", 10, 2);
  assert.equal(found.total, 3);
  assert.equal(found.matches.length, 2);
});

Deno.test("searchDocument matches across a page break and returns the original text", () => {
  const found = searchDocument(doc, "hyphenated word", 0, 10);
  assert.equal(found.total, 1);
  assert.equal(found.matches[0].context, "**hyphen-\n\fated word**");
  assert.equal(found.matches[0].page, 1);
});

Deno.test("searchDocument returns the ligature as printed when the query spells the letters", () => {
  const found = searchDocument(doc, "first page", 8, 10);
  assert.equal(found.matches[0].context, "The **ﬁrst page** end");
});

Deno.test("a hyphen inside the query also matches a compound joined at a line end", () => {
  const d = indexDocument({
    pageCount: 1,
    pages: ["a peer-to-\npeer network; a life-threa-\ntening event; peer-to-peer"],
  });
  const compound = searchDocument(d, "peer-to-peer", 0, 10);
  assert.equal(compound.total, 2);
  assert.deepEqual(compound.matches.map((m) => m.context), ["**peer-to-\npeer**", "**peer-to-peer**"]);
  assert.equal(searchDocument(d, "life-threatening", 0, 10).matches[0].context, "**life-threa-\ntening**");
  assert.equal(searchDocument(d, "-to", 0, 10).total, 2, "a leading hyphen stays required");
});

Deno.test("searchDocument does not count overlapping occurrences twice", () => {
  const d = indexDocument({ pageCount: 1, pages: ["aaaa"] });
  assert.equal(searchDocument(d, "aa", 0, 10).total, 2);
});

Deno.test("a query that folds to nothing matches nothing", () => {
  assert.deepEqual(searchDocument(doc, " \u200B ", 10, 10), { total: 0, matches: [] });
});

Deno.test("contextAround takes half the context before and half after, clipped at the ends", async (t) => {
  const text = "0123456789abcdefghij";
  await t.step("in the middle", () => assert.equal(contextAround(text, 10, 12, 6), "789**ab**cde"));
  await t.step("an odd length gives the extra character to the right", () => {
    assert.equal(contextAround(text, 10, 12, 5), "89**ab**cde");
  });
  await t.step("near the start", () => assert.equal(contextAround(text, 1, 2, 10), "0**1**23456"));
  await t.step("near the end", () => assert.equal(contextAround(text, 18, 20, 10), "defgh**ij**"));
  await t.step("zero context", () => assert.equal(contextAround(text, 0, 1, 0), "**0**"));
});

Deno.test("contextAround never cuts a surrogate pair in two", () => {
  const text = "𝐀𝐁match𝐂𝐃";
  const context = contextAround(text, 4, 9, 3);
  assert.equal(context, "𝐁**match**𝐂");
  assert.doesNotMatch(context, /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
});

Deno.test("pageOf maps an offset to its 1-based page", () => {
  assert.equal(pageOf([0, 10, 20], 0), 1);
  assert.equal(pageOf([0, 10, 20], 9), 1);
  assert.equal(pageOf([0, 10, 20], 10), 2);
  assert.equal(pageOf([0, 10, 20], 99), 3);
});
