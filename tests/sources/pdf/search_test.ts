import assert from "node:assert/strict";
import { passageText, windowAround } from "../../../src/sources/pdf/passages.ts";
import { indexDocument, pageOf, type PdfDocument, searchDocument } from "../../../src/sources/pdf/search.ts";

/** A lone hit's passage: its window (windowAround) with the hit marked. */
function contextAround(text: string, start: number, end: number, contextLength: number): string {
  const [left, right] = windowAround(text, start, end, contextLength);
  return passageText(text, { start: left, end: right, hits: [{ start, end }] });
}

/** The search as a caller reads it: each passage's text, page and hit offsets, and the total. */
function find(d: PdfDocument, query: string, contextLength: number, maxWeight?: number) {
  const found = searchDocument(d, query, { contextLength, maxWeight });
  return {
    total: found.total,
    mode: found.query.mode,
    contexts: found.passages.map((p) => passageText(d.text, p)),
    pages: found.passages.map((p) => pageOf(d.pageStarts, p.hits[0].start)),
    offsets: found.passages.map((p) => p.hits.map((h) => h.start)),
  };
}

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
  const found = find(doc, "Beta", 8);
  assert.equal(found.total, 3);
  assert.equal(found.mode, "phrase");
  assert.deepEqual(found.contexts, ["**beta**", "**beta**", "**BETA**"]);
  assert.deepEqual(found.pages, [1, 2, 3]);
  for (const [at] of found.offsets) assert.equal(doc.text.slice(at, at + 4).toLowerCase(), "beta");
});

Deno.test("searchDocument matches a quoted phrase across a page break and returns the original text", () => {
  const found = find(doc, '"hyphenated word"', 22);
  assert.equal(found.total, 1);
  assert.deepEqual(found.contexts, ["**hyphen-\n\fated word**"]);
  assert.deepEqual(found.pages, [1]);
});

Deno.test("searchDocument returns the ligature as printed when the query spells the letters", () => {
  assert.deepEqual(find(doc, '"first page"', 21).contexts, ["The **ﬁrst page** end"]);
});

Deno.test("hyphen rule, query side: a query hyphen matches a hyphen or a line-end break, never nothing", () => {
  const d = indexDocument({
    pageCount: 1,
    pages: [
      "Multi-LexSum, see multilexsum.github.io; a peer-to-\npeer network; a life-threa-\ntening event; Multi-\nLexSum",
    ],
  });
  const contexts = (query: string) => find(d, query, 40).contexts;
  assert.deepEqual(contexts("Multi-LexSum").map((c) => c.match(/\*\*(.*)\*\*/s)![1]), [
    "Multi-LexSum",
    "Multi-\nLexSum",
  ]);
  assert.equal(find(d, "peer-to-peer", 0).total, 1);
  assert.match(contexts("peer-to-peer")[0], /\*\*peer-to-\npeer\*\*/);
  assert.match(contexts("life-threatening")[0], /\*\*life-threa-\ntening\*\*/);
  assert.equal(find(d, "-to", 0).total, 1, "a leading hyphen stays required");
});

Deno.test("hyphen rule, text side: a line-end hyphen joins the halves whatever the case; an inner one stays", () => {
  const d = indexDocument({ pageCount: 1, pages: ["Our Cite-\nSee tool and com-\npile steps; well-known facts"] });
  assert.equal(find(d, "CiteSee", 30).contexts[0].includes("**Cite-\nSee**"), true);
  assert.equal(find(d, "citesee", 0).total, 1);
  assert.equal(find(d, "compile", 0).total, 1);
  assert.equal(find(d, "Cite-See", 0).total, 1, "a query hyphen matches the break too");
  assert.equal(find(d, "wellknown", 0).total, 0, "a hyphen inside a line is the text's own");
  assert.equal(find(d, "well-known", 0).total, 1);
});

Deno.test("searchDocument does not count overlapping occurrences twice", () => {
  const d = indexDocument({ pageCount: 1, pages: ["aaaa"] });
  assert.equal(find(d, "aa", 0).total, 2);
});

Deno.test("a query that folds to nothing matches nothing", () => {
  const found = searchDocument(doc, " \u200B ", { contextLength: 10 });
  assert.equal(found.total, 0);
  assert.deepEqual(found.passages, []);
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

Deno.test("clustered hits share one window of at most context_length that lists every offset (seed 002)", () => {
  const d = indexDocument({
    pageCount: 1,
    pages: ["one beta two beta three. ".repeat(3) + "x".repeat(100) + " beta end"],
  });
  const found = find(d, "beta", 20);
  assert.equal(found.total, 7);
  // Hits 9 characters apart pair up in a 20-character window; the far one is alone.
  assert.deepEqual(found.offsets.map((o) => o.length), [2, 2, 2, 1]);
  for (const context of found.contexts) {
    assert.ok(context.replaceAll("**", "").length <= 20, `"${context}" is longer than context_length`);
    assert.equal((context.match(/\*\*beta\*\*/g) ?? []).length, found.offsets[found.contexts.indexOf(context)].length);
  }
  assert.equal(found.contexts[3], "xxxxxxx **beta** end");
  const text = found.contexts.join("").replaceAll("**", "");
  assert.ok(text.length < d.text.length, "no character of the document is sent twice");
});

Deno.test("a phrase's windows stay within context_length however many hits cluster, in document order", () => {
  const d = indexDocument({ pageCount: 1, pages: ["heparin and heparin. ".repeat(400)] });
  const found = searchDocument(d, "heparin", { contextLength: 2000 });
  assert.equal(found.total, 800);
  assert.equal(found.passages.reduce((n, p) => n + p.hits.length, 0), 800, "every hit in one window");
  for (const [i, p] of found.passages.entries()) {
    assert.ok(p.end - p.start <= 2000, `window ${i} is ${p.end - p.start} characters`);
    if (i > 0) assert.ok(p.start >= found.passages[i - 1].end, "windows in document order, not overlapping");
  }
  assert.ok(found.passages.length >= 4, "8,400 characters of hits need several 2,000-character windows");
});

Deno.test("a merged passage never grows past its cap: the next one starts where it ends", () => {
  const d = indexDocument({ pageCount: 1, pages: ["the cat and the dog and the bird. ".repeat(200)] });
  const found = searchDocument(d, "the", { contextLength: 200, maxWeight: 1_000 });
  assert.equal(found.total, 600);
  assert.ok(found.passages.length > 5);
  for (const [i, p] of found.passages.entries()) {
    assert.ok(p.end - p.start + 12 * p.hits.length <= 1_000, `passage ${i} within its cap`);
    if (i > 0) assert.ok(p.start >= found.passages[i - 1].end, "passages do not overlap");
  }
  assert.equal(found.passages.reduce((n, p) => n + p.hits.length, 0), 600, "every hit is in one passage");
});

Deno.test("a query of several unquoted words ranks passages by the words they contain", () => {
  const filler = "Unrelated sentences about the weather and the sea fill this part of the text. ".repeat(6);
  const d = indexDocument({
    pageCount: 1,
    pages: [
      `Heparin is common. ${filler}The dose matters. ${filler}` +
      `We recommend a heparin dose of 5000 units twice daily, the recommended dosing. ${filler}Heparin again.`,
    ],
  });
  const found = find(d, "recommended heparin dose", 120);
  assert.equal(found.mode, "words");
  assert.match(found.contexts[0], /\*\*recommend\*\* a \*\*heparin\*\* \*\*dose\*\*/);
  assert.match(found.contexts[1], /\*\*Heparin\*\* is common/, "one word, the rarer first");
  assert.equal(found.offsets.flat().length, found.total, "every hit is shown once");
  assert.ok(found.contexts.some((c) => c.includes("**dosing**")), "inflected forms count too");
  assert.deepEqual(searchDocument(d, "recommended heparin dose", { contextLength: 120 }).query, {
    mode: "words",
    phrase: "recommended heparin dose",
    words: [
      { word: "recommended", stem: "recommend" },
      { word: "heparin", stem: "heparin" },
      { word: "dose", stem: "dos" },
    ],
  });
});

Deno.test("a single word, a quoted phrase or only common words keep the exact match", () => {
  const d = indexDocument({ pageCount: 1, pages: ["To be or not to be: heparin dose, not heparin and dose."] });
  assert.equal(find(d, "heparin", 20).mode, "phrase");
  const quoted = find(d, '"heparin dose"', 30);
  assert.equal(quoted.mode, "phrase");
  assert.equal(quoted.total, 1);
  assert.equal(find(d, "\u201Cheparin dose\u201D", 30).total, 1, "typographic quotes too");
  const common = find(d, "to be or not to be", 30);
  assert.equal(common.mode, "phrase");
  assert.equal(common.total, 1);
});

Deno.test("a search asked again (the next page of an answer) gives what a first search of the document gives", () => {
  const pages = ["Alpha beta gamma.\nBeta again, and beta.", "More beta on page two; gamma too."];
  const searched = indexDocument({ pageCount: 2, pages });
  const asks: [string, number][] = [["beta", 40], ["beta", 20], ["beta gamma", 40], ['"beta"', 40], ["gamma", 40]];
  for (const [query, contextLength] of [...asks, ...asks]) {
    const fresh = indexDocument({ pageCount: 2, pages });
    assert.deepEqual(
      find(searched, query, contextLength),
      find(fresh, query, contextLength),
      `${query} ${contextLength}`,
    );
  }
  assert.notDeepEqual(find(searched, "beta", 40).contexts, find(searched, "beta", 20).contexts, "options count");
});

Deno.test("a ranked passage in the reference list is marked and comes after every body passage", () => {
  const body = "We gave heparin to trauma patients. ".repeat(3) + "Filler sentences about other things. ".repeat(20);
  const refs = "\nReferences\n1. Low-dose heparin prophylaxis in trauma patients: dose and timing. J Trauma 2001.\n" +
    "2. Heparin dose in trauma. Surg 2002.\n3. Trauma prophylaxis. Chest 2003.\n";
  const d = indexDocument({ pageCount: 1, pages: [body + refs] });
  const found = searchDocument(d, "heparin dose for trauma prophylaxis", { contextLength: 80 });
  const start = d.text.indexOf("References");
  const inRefs = found.passages.map((p) => p.hits[0].start >= start);
  assert.equal(inRefs[0], false, "body text first, though the reference titles hold more of the words");
  assert.ok(inRefs.includes(true));
  assert.ok(inRefs.slice(inRefs.indexOf(true)).every(Boolean));
  assert.ok(found.passages.filter((p) => p.inReferences).length === inRefs.filter(Boolean).length);
});

Deno.test("a References heading not followed by entries is no reference list", () => {
  const d = indexDocument({
    pageCount: 1,
    pages: ["Intro heparin dose.\nReferences\nare given at the end of each chapter."],
  });
  const found = searchDocument(d, "heparin dose", { contextLength: 40 });
  assert.ok(found.passages.every((p) => !p.inReferences));
});
