import assert from "node:assert/strict";
import { searchPdf } from "../../../src/tools/pdf/search_pdf.ts";
import { everyPageLoops, secondPageLoops } from "../../sources/pdf/damaged_pdfs.ts";
import { tinyPdf } from "../../sources/pdf/tiny_pdf.ts";
import { FILES_DIR, FIXTURES_PDF, pdfClient, type SearchResult } from "./pdf_client.ts";

const NOT_SEARCHED = { query_exists: false, matches: [], total_matches: 0, match_details: [] };

/** The hits alone, without their context, over every passage. */
const hits = (r: SearchResult) => r.matches.flatMap((m) => [...m.matchAll(/\*\*(.*?)\*\*/gs)].map((h) => h[1]));

Deno.test("search_pdf finds concrete passages in real PDFs", async (t) => {
  const pdf = await pdfClient(FIXTURES_PDF);
  try {
    await t.step("two-column paper: a word hyphenated across a line end", async () => {
      const r = await pdf.search({ pdf_name: "scienceparse__map-reduce", query: '"automatically parallelized"' });
      assert.equal(r.file_exists, true);
      assert.equal(r.query_exists, true);
      assert.equal(r.page_count, 13);
      assert.equal(r.total_matches, 1);
      assert.match(r.matches[0], /this functional style are \*\*automati-\ncally parallelized\*\* and executed/);
      assert.deepEqual(r.match_details, [{ page: 1, offset: 596, offsets: [596] }]);
    });
    await t.step("two-column paper: words set with ligatures match plain letters, case-insensitively", async () => {
      const r = await pdf.search({ pdf_name: "scienceparse__map-reduce", query: "FILE", context_length: 40 });
      assert.equal(r.total_matches, 65);
      assert.equal(r.matches.length, 10);
      assert.match(r.matches[0], /put \*\*file\*\*s, and/);
      assert.equal(r.match_details[0].page, 2);
    });
    await t.step("two-column LaTeX: hyphenation in both columns", async () => {
      const r = await pdf.search({ pdf_name: "pypdf__multicolumn", query: '"adipiscing elit"', context_length: 40 });
      assert.equal(r.total_matches, 2);
      assert.match(r.matches[0], /\*\*adip-\niscing elit\*\*/);
      assert.match(r.matches[1], /\*\*adipiscing elit\*\*/);
    });
    await t.step("three columns: reading order, hyphenation and a sentence over the page break", async () => {
      const order = await pdf.search({ pdf_name: "built__three_columns", query: '"ends here. Column two"' });
      assert.equal(order.total_matches, 1);
      const hyphen = await pdf.search({
        pdf_name: "built__three_columns",
        query: "photosynthesis",
        context_length: 20,
      });
      assert.deepEqual(hyphen.matches, ["**photo-\nsynthesis**"]);
      const spanning = await pdf.search({
        pdf_name: "built__three_columns",
        query: '"continued on the next page"',
        context_length: 30,
      });
      assert.deepEqual(spanning.matches, ["**continued\non the\fnext page**"]);
      assert.equal(spanning.match_details[0].page, 1);
      const second = await pdf.search({ pdf_name: "built__three_columns", query: '"short conclusion"' });
      assert.equal(second.match_details[0].page, 2);
      assert.equal(second.page_count, 2);
    });
    await t.step("ligature test page: PDFium spells ﬅ, ﬆ and ﬄ out, and 'st' and 'FFL' find them", async () => {
      const st = await pdf.search({ pdf_name: "pdfjs__copy_paste_ligatures", query: "st", context_length: 20 });
      assert.deepEqual(hits(st), ["ſt", "st"]);
      const ffl = await pdf.search({ pdf_name: "pdfjs__copy_paste_ligatures", query: "FFL", context_length: 20 });
      assert.deepEqual(hits(ffl), ["ffl"]);
      const query = await pdf.search({ pdf_name: "pdfjs__copy_paste_ligatures", query: "ﬁ", context_length: 20 });
      assert.equal(query.total_matches, 2, "a ligature in the query matches the letters (in ﬁ and ﬃ)");
    });
    await t.step("Arabic set in presentation forms matches plain Arabic letters", async () => {
      const r = await pdf.search({ pdf_name: "pdfjs__ArabicCIDTrueType", query: "الخطوط", context_length: 20 });
      assert.equal(r.total_matches, 4);
      assert.equal(hits(r)[0], "الخطوط"); // PDFium gives the letters; search folds presentation forms too
      const word = await pdf.search({ pdf_name: "docling__right_to_left_01", query: '"تحليل البيانات"' });
      assert.equal(word.total_matches, 3);
    });
    await t.step("Hebrew drawn right to left is found in logical order", async () => {
      const r = await pdf.search({ pdf_name: "built__hebrew_rtl", query: '"הספרייה הלאומית"', context_length: 20 });
      assert.deepEqual(hits(r), ["הספרייה הלאומית"]);
      assert.equal((await pdf.search({ pdf_name: "built__hebrew_rtl", query: '"שלום עולם"' })).total_matches, 1);
    });
    await t.step("Chinese", async () => {
      const r = await pdf.search({ pdf_name: "pdfjs__issue12823", query: "知识库", context_length: 20 });
      assert.equal(r.total_matches, 2);
      assert.match(r.matches[0], /\n ?\*\*知识库\*\*简介/); // PDFium keeps the space after an unmapped bullet
      assert.deepEqual(hits(r), ["知识库", "知识库"]);
    });
    await t.step("Cyrillic, with case folding", async () => {
      const r = await pdf.search({ pdf_name: "pdfjs__issue20232", query: "ЛИСТ", context_length: 20 });
      assert.deepEqual(hits(r), ["Лист", "Лист", "Лист"]);
      assert.equal((await pdf.search({ pdf_name: "pdfjs__issue20232", query: "масштаб" })).total_matches, 1);
    });
    await t.step("a PDF encrypted with an empty password is searched like any other", async () => {
      const r = await pdf.search({ pdf_name: "pdfjs__issue9972-1", query: "MATTRESS" });
      assert.equal(r.total_matches, 4);
      assert.equal(r.error, undefined);
    });
    await t.step("a phrase that is not there: what to try next", async () => {
      const r = await pdf.search({ pdf_name: "scienceparse__map-reduce", query: '"quantum chromodynamics"' });
      assert.deepEqual(r, {
        pdf_name: "scienceparse__map-reduce",
        file_exists: true,
        page_count: 13,
        ...NOT_SEARCHED,
        mode: "phrase",
        total_passages: 0,
        truncated: false,
        hint: "Drop the quotes to rank passages by the words they contain, or try fewer words; Try another " +
          "spelling, a synonym, a shorter word stem or an abbreviation; search_pdfs searches every PDF; list_pdfs " +
          "names them.",
        isError: undefined,
      });
      const words = await pdf.search({ pdf_name: "scienceparse__map-reduce", query: "quantum chromodynamics" });
      assert.deepEqual(words.words, ["quantum", "chromodynamics"]);
      assert.match(words.hint ?? "", /^None of the words quantum, chromodynamics occur\. Try other words/);
    });
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdf reports unreadable PDFs as results with a specific error", async (t) => {
  const pdf = await pdfClient(FIXTURES_PDF);
  const expectError = async (pdf_name: string, pattern: RegExp, page_count = 0) => {
    const r = await pdf.search({ pdf_name, query: "the" });
    assert.equal(r.isError, undefined);
    assert.equal(r.file_exists, true);
    assert.equal(r.query_exists, false);
    assert.deepEqual(r.matches, []);
    assert.equal(r.page_count, page_count);
    assert.match(r.error ?? "", pattern);
  };
  try {
    await t.step("password-protected", () => expectError("pypdf__libreoffice-writer-password", /password-protected/));
    await t.step("corrupt (truncated)", () => expectError("pdfjs__bug1020226", /not a valid PDF/));
    await t.step("corrupt (fuzzed)", () => expectError("pdfjs__poppler-742-0-fuzzed", /damaged/, 1));
    await t.step("zero bytes", () => expectError("pdfplumber__empty", /empty \(0 bytes\)/));
    await t.step("scanned, no text layer", () => expectError("pdfjs__scan-bad", /no text layer.*scanned/, 1));
    await t.step("zero bytes, the same answer again from the remembered verdict", async () => {
      await expectError("pdfplumber__empty", /empty \(0 bytes\)/);
    });
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdf reports PDFs over the configured limits", async (t) => {
  await t.step("PDF_MAX_BYTES", async () => {
    const pdf = await pdfClient(FIXTURES_PDF, { PDF_MAX_BYTES: "50000" });
    const r = await pdf.search({ pdf_name: "pypdf__multicolumn", query: "lorem" });
    await pdf.close();
    assert.equal(r.file_exists, true);
    assert.match(r.error ?? "", /77 KB, over the limit of 49 KB \(PDF_MAX_BYTES\)/);
  });
  await t.step("PDF_MAX_PAGES", async () => {
    const pdf = await pdfClient(FIXTURES_PDF, { PDF_MAX_PAGES: "2" });
    const r = await pdf.search({ pdf_name: "pypdf__multicolumn", query: "lorem" });
    await pdf.close();
    assert.equal(r.page_count, 3);
    assert.match(r.error ?? "", /3 pages, over the limit of 2 pages \(PDF_MAX_PAGES\)/);
  });
});

Deno.test("search_pdf shapes context and limits the number of matches", async (t) => {
  const pdf = await pdfClient(FIXTURES_PDF);
  try {
    await t.step("a lone hit's passage is 2000 characters by default, markers included, split around it", async () => {
      const r = await pdf.search({ pdf_name: "scienceparse__map-reduce", query: "straggler" });
      assert.equal(r.total_matches, 4);
      const lone = r.matches.filter((_, i) => r.match_details[i].offsets.length === 1);
      assert.equal(lone.length, 1, "three hits share a passage, the fourth is far from them");
      const [before, hit] = lone[0].split("**", 3);
      assert.equal(before.length, Math.floor((2000 - 4 - "straggler".length) / 2));
      assert.equal(hit.toLowerCase(), "straggler");
      assert.equal(lone[0].length, 2000);
    });
    await t.step("hits whose windows overlap share one passage listing them all; no text is sent twice", async () => {
      const r = await pdf.search({
        pdf_name: "scienceparse__map-reduce",
        query: '"reduce function"',
        context_length: 300,
        topk: 100,
      });
      assert.equal(r.total_passages, r.matches.length);
      assert.equal(r.match_details.flatMap((d) => d.offsets).length, r.total_matches, "every hit once");
      r.matches.forEach((m, i) => {
        const count = r.match_details[i].offsets.length;
        assert.equal(hits({ ...r, matches: [m] }).length, count, "every listed hit is marked");
        if (count === 1) assert.ok(m.length <= 300, "a lone hit keeps the hard bound");
      });
      assert.ok(r.match_details.some((d) => d.offsets.length > 1), "some hits are close enough to merge");
      const ends = r.match_details.map((d, i) => [d.offset, r.matches[i]] as const);
      for (let i = 1; i < ends.length; i++) assert.ok(ends[i][0] > ends[i - 1][0], "document order");
    });
    await t.step("topk caps matches; total_matches counts them all; details follow matches", async () => {
      const r = await pdf.search({
        pdf_name: "scienceparse__map-reduce",
        query: "mapreduce",
        topk: 3,
        context_length: 20,
      });
      assert.equal(r.matches.length, 3);
      assert.equal(r.match_details.length, 3);
      assert.equal(r.total_matches, 99);
      assert.ok(r.match_details[0].offset < r.match_details[1].offset);
    });
    await t.step("context at the very start of the document is clipped", async () => {
      const r = await pdf.search({
        pdf_name: "scienceparse__map-reduce",
        query: "mapreduce",
        topk: 1,
        context_length: 20,
      });
      assert.equal(r.matches[0], "**MapReduce**: Simpl", "nothing before, so the whole rest after");
    });
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdf answers file_exists:false for a well-formed name that is not there", async () => {
  const pdf = await pdfClient(FIXTURES_PDF);
  try {
    const r = await pdf.search({ pdf_name: "no_such_paper", query: "x" });
    assert.deepEqual(r, {
      pdf_name: "no_such_paper",
      file_exists: false,
      page_count: 0,
      ...NOT_SEARCHED,
      isError: undefined,
    });
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdf input limits are INVALID_INPUT errors naming the field", async () => {
  const pdf = await pdfClient(FIXTURES_PDF);
  const cases: [Record<string, unknown>, string][] = [
    [{ pdf_name: "", query: "x" }, "pdf_name"],
    [{ pdf_name: "a".repeat(256), query: "x" }, "pdf_name"],
    [{ pdf_name: "a", query: "" }, "query"],
    [{ pdf_name: "a", query: "q".repeat(1001) }, "query"],
    [{ pdf_name: "a", query: " \u200B " }, "query"],
    [{ pdf_name: "a", query: "x", context_length: -1 }, "context_length"],
    [{ pdf_name: "a", query: "x", context_length: 19 }, "context_length"],
    [{ pdf_name: "a", query: "x", context_length: 20001 }, "context_length"],
    [{ pdf_name: "a", query: "x", context_length: 1.5 }, "context_length"],
    [{ pdf_name: "a", query: "x", topk: 0 }, "topk"],
    [{ pdf_name: "a", query: "x", topk: 101 }, "topk"],
    [{ pdf_name: "a", query: "x", top_k: 5 }, "top_k"],
    [{ query: "x" }, "pdf_name"],
  ];
  try {
    for (const [args, field] of cases) {
      const r = await pdf.search(args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.equal(r.error?.code, "INVALID_INPUT");
      assert.match(r.error?.message ?? "", new RegExp(`'${field}'`), JSON.stringify(args));
    }
    const longest = await pdf.search({
      pdf_name: "a".repeat(255),
      query: "q".repeat(1000),
      context_length: 20000,
      topk: 100,
    });
    assert.equal(longest.file_exists, false, "the largest values allowed are accepted");
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdf's examples run against the sample paper shipped in files/", async () => {
  const pdf = await pdfClient(FILES_DIR);
  try {
    for (const example of searchPdf.examples) {
      const r = await pdf.search(example);
      assert.equal(r.query_exists, true, JSON.stringify(example));
      assert.equal(r.page_count, 4);
    }
    const text = await pdf.client.callTool({ name: "search_pdf", arguments: searchPdf.examples[0] });
    const block = (text.content as { text: string }[])[0].text;
    assert.match(
      block,
      /^## dvt_prophylaxis_review\.pdf\n⟦\npages: 4\nmatches: 34 hits in \d+ passages \(phrase mode\), showing 3\n- p\. 1 \(offsets \d+, \d+, \d+\): .*\*\*heparin\*\*/,
    );
    assert.equal(block.split("\n- p. ").length, 4, "every passage is in the text block");
    assert.match(
      block,
      /\nnext page: call search_pdf with \{"pdf_name":"dvt_prophylaxis_review",.*"cursor":"[^"]+"\}$/,
    );
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdf salvages the readable pages of a damaged page tree, with a warning", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "pdf_damaged_" });
  await Deno.writeFile(`${root}/damaged.pdf`, secondPageLoops());
  await Deno.writeFile(`${root}/hopeless.pdf`, everyPageLoops());
  await Deno.copyFile(`${FIXTURES_PDF}/pdfjs__Pages-tree-refs.pdf`, `${root}/loop.pdf`);
  const pdf = await pdfClient(root);
  try {
    await t.step("a valid PDF whose second page was made to loop: page 1 is searched, page 2 named", async () => {
      const r = await pdf.search({ pdf_name: "damaged", query: "chlorophyll", context_length: 40 });
      assert.equal(r.total_matches, 1);
      assert.equal(r.match_details[0].page, 1);
      assert.equal(r.page_count, 2);
      assert.deepEqual(r.warnings, [
        "1 of 2 pages cannot be read and were skipped (page 2: the page tree is circular); the other pages were searched.",
      ]);
      const text = await pdf.client.callTool({
        name: "search_pdf",
        arguments: { pdf_name: "damaged", query: "light" },
      });
      assert.match((text.content as { text: string }[])[0].text, /\nwarning: 1 of 2 pages cannot be read/);
    });
    await t.step("the circular page tree from pdf.js's tests: its one readable page is searched", async () => {
      const r = await pdf.search({ pdf_name: "loop", query: '"pages loop"' });
      assert.equal(r.total_matches, 1);
      assert.match(r.warnings?.[0] ?? "", /page 2: the page tree is circular/);
    });
    await t.step("no readable page at all: an error, and list_pdfs says the same", async () => {
      const r = await pdf.search({ pdf_name: "hopeless", query: "light" });
      assert.match(r.error ?? "", /page tree is circular/);
      const list = await pdf.client.callTool({ name: "list_pdfs", arguments: {} });
      const entries = (list.structuredContent as { pdfs: { name: string; error?: string; warning?: string }[] }).pdfs;
      assert.equal(entries.find((e) => e.name === "hopeless")?.error, r.error);
      assert.match(entries.find((e) => e.name === "damaged")?.warning ?? "", /^1 of 2 pages cannot be read/);
    });
  } finally {
    await pdf.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a short one-page PDF is searched, and a search that finds nothing says how little text it has", async () => {
  const root = await Deno.makeTempDir({ prefix: "pdf_short_" });
  await Deno.writeFile(`${root}/label.pdf`, tinyPdf("Invoice 2024 #12"));
  const pdf = await pdfClient(root);
  try {
    const found = await pdf.search({ pdf_name: "label", query: "invoice" });
    assert.equal(found.error, undefined, "not 'probably scanned'");
    assert.deepEqual(found.matches, ["**Invoice** 2024 #12"]);
    const none = await pdf.search({ pdf_name: "label", query: "receipt" });
    assert.match(none.hint ?? "", /another spelling.*This PDF holds only 14 characters of text on 1 page\(s\)/);
  } finally {
    await pdf.close();
    await Deno.remove(root, { recursive: true });
  }
});
