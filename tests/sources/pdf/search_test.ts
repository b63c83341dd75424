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
  const found = searchDocument(doc, "Beta", 8, 10);
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
  const found = searchDocument(doc, "hyphenated word", 22, 10);
  assert.equal(found.total, 1);
  assert.equal(found.matches[0].context, "**hyphen-\n\fated word**");
  assert.equal(found.matches[0].page, 1);
});

Deno.test("searchDocument returns the ligature as printed when the query spells the letters", () => {
  const found = searchDocument(doc, "first page", 21, 10);
  assert.equal(found.matches[0].context, "The **ﬁrst page** end");
});

Deno.test("hyphen rule, query side: a query hyphen matches a hyphen or a line-end break, never nothing", () => {
  const d = indexDocument({
    pageCount: 1,
    pages: [
      "Multi-LexSum, see multilexsum.github.io; a peer-to-\npeer network; a life-threa-\ntening event; Multi-\nLexSum",
    ],
  });
  const contexts = (query: string) => searchDocument(d, query, 40, 10).matches.map((m) => m.context);
  assert.deepEqual(contexts("Multi-LexSum").map((c) => c.match(/\*\*(.*)\*\*/s)![1]), [
    "Multi-LexSum",
    "Multi-\nLexSum",
  ]);
  assert.equal(searchDocument(d, "peer-to-peer", 0, 10).total, 1);
  assert.match(contexts("peer-to-peer")[0], /\*\*peer-to-\npeer\*\*/);
  assert.match(contexts("life-threatening")[0], /\*\*life-threa-\ntening\*\*/);
  assert.equal(searchDocument(d, "-to", 0, 10).total, 1, "a leading hyphen stays required");
});

Deno.test("hyphen rule, text side: a line-end hyphen joins the halves whatever the case; an inner one stays", () => {
  const d = indexDocument({ pageCount: 1, pages: ["Our Cite-\nSee tool and com-\npile steps; well-known facts"] });
  assert.equal(searchDocument(d, "CiteSee", 30, 10).matches[0].context.includes("**Cite-\nSee**"), true);
  assert.equal(searchDocument(d, "citesee", 0, 10).total, 1);
  assert.equal(searchDocument(d, "compile", 0, 10).total, 1);
  assert.equal(searchDocument(d, "Cite-See", 0, 10).total, 1, "a query hyphen matches the break too");
  assert.equal(searchDocument(d, "wellknown", 0, 10).total, 0, "a hyphen inside a line is the text's own");
  assert.equal(searchDocument(d, "well-known", 0, 10).total, 1);
});

Deno.test("searchDocument does not count overlapping occurrences twice", () => {
  const d = indexDocument({ pageCount: 1, pages: ["aaaa"] });
  assert.equal(searchDocument(d, "aa", 0, 10).total, 2);
});

Deno.test("a query that folds to nothing matches nothing", () => {
  assert.deepEqual(searchDocument(doc, " \u200B ", 10, 10), { total: 0, matches: [] });
});

Deno.test("contextAround keeps each match within contextLength characters, markers included", async (t) => {
  const text = "0123456789abcdefghij";
  await t.step(
    "in the middle: the rest split evenly",
    () => assert.equal(contextAround(text, 10, 12, 10), "89**ab**cd"),
  );
  await t.step("an odd rest gives the extra character to the right", () => {
    assert.equal(contextAround(text, 10, 12, 11), "89**ab**cde");
  });
  await t.step("near the start the other side gets what this one cannot use", () => {
    assert.equal(contextAround(text, 1, 2, 11), "0**1**23456");
  });
  await t.step("near the end likewise", () => assert.equal(contextAround(text, 18, 20, 10), "efgh**ij**"));
  await t.step("a hit longer than the allowance is cut with an ellipsis", () => {
    assert.equal(contextAround(text, 0, 10, 8), "**012…**");
  });
  await t.step("never longer than asked, for any hit and any length", () => {
    for (let length = 5; length <= 30; length++) {
      for (let start = 0; start < text.length; start++) {
        for (let end = start + 1; end <= text.length; end++) {
          assert.ok(contextAround(text, start, end, length).length <= length, `${start}-${end} in ${length}`);
        }
      }
    }
  });
});

Deno.test("contextAround never cuts a surrogate pair in two", () => {
  const text = "𝐀𝐁match𝐂𝐃";
  assert.equal(contextAround(text, 4, 9, 13), "𝐁**match**𝐂");
  const tight = contextAround(text, 4, 9, 12);
  assert.equal(tight, "**match**𝐂");
  for (let length = 9; length <= 20; length++) {
    const context = contextAround(text, 4, 9, length);
    assert.ok(context.length <= length);
    assert.doesNotMatch(context, /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  }
});

Deno.test("pageOf maps an offset to its 1-based page", () => {
  assert.equal(pageOf([0, 10, 20], 0), 1);
  assert.equal(pageOf([0, 10, 20], 9), 1);
  assert.equal(pageOf([0, 10, 20], 10), 2);
  assert.equal(pageOf([0, 10, 20], 99), 3);
});
