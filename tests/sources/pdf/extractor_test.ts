import assert from "node:assert/strict";
import { createPdfExtractor, pageCountHint } from "../../../src/sources/pdf/extractor.ts";
import { extractorArgs, workerChannels } from "../../../src/sources/pdf/extractor_process.ts";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import { PdfExtractionError, type PdfFailure } from "../../../src/sources/pdf/types.ts";
import { hasImageXObject } from "../../../src/sources/pdf/text_layer.ts";
import { fixtureBytes } from "../../helpers/runtime.ts";
import { everyPageLoops, secondPageLoops } from "./damaged_pdfs.ts";
import { tinyPdf } from "./tiny_pdf.ts";

const LIMITS = { root: "./files", maxPages: 2000, maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000 };

async function failure(promise: Promise<unknown>): Promise<PdfExtractionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PdfExtractionError) return error;
    throw error;
  }
  throw new Error("the extraction was expected to fail");
}

Deno.test("the worker extractor turns real PDFs into page texts or specific failures", async (t) => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1 });
  const expectFailure = async (path: string, reason: PdfFailure, message: RegExp) => {
    const error = await failure(extractor.extract(fixtureBytes(`pdf/${path}`)));
    assert.equal(error.reason, reason);
    assert.match(error.message, message);
  };
  try {
    await t.step("a two-column paper keeps its pages in order, read by PDFium", async () => {
      const text = await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"));
      assert.equal(text.pageCount, 3);
      assert.equal(text.pages.length, 3);
      assert.match(text.pages[0], /^Two-Column Document with Lorem Ipsum\n/);
      assert.equal(text.engine, "pdfium");
    });
    await t.step("a paper's line-end hyphens reach search as a hyphen and a line end", async () => {
      const text = await extractor.extract(
        await Deno.readFile(new URL("../../../files/dvt_prophylaxis_review.pdf", import.meta.url)),
      );
      assert.equal(text.engine, "pdfium");
      assert.match(text.pages[0], /they must be appro-\npriately utilized/);
      // deno-lint-ignore no-control-regex -- PDFium's soft-hyphen markers must not reach the text
      assert.doesNotMatch(text.pages.join("\f"), /[\uFFFE\u0002\r]/);
    });
    await t.step("pdf.js takes over a text layer PDFium misreads (a broken ToUnicode CMap)", async () => {
      const text = await extractor.extract(fixtureBytes("pdf/pdfjs__issue20232.pdf"));
      assert.equal(text.engine, "pdf.js");
      assert.match(text.pages[0], /Масса Масштаб/);
    });
    await t.step("pdf.js takes over a page PDFium cannot load, and names why", async () => {
      const text = await extractor.extract(secondPageLoops());
      assert.equal(text.engine, "pdf.js");
      assert.deepEqual(text.unreadable, [{ page: 2, reason: "the page tree is circular" }]);
    });
    await t.step("a PDF encrypted with an empty user password opens without one", async () => {
      const text = await extractor.extract(fixtureBytes("pdf/pdfjs__issue9972-1.pdf"));
      assert.match(text.pages[0], /\nPower Sleep\nPersonal Sleep Study\n/);
      assert.match(text.pages[0], /Personal Vitality Rebate\n/);
    });
    await t.step("ligature glyphs come out as their letters (search folds both alike)", async () => {
      const text = await extractor.extract(fixtureBytes("pdf/pdfjs__copy_paste_ligatures.pdf"));
      assert.equal(text.pages[0], "abcdeffffiflffifflſtstghijklmno");
    });
    await t.step("a zero-byte file is 'empty'", () => expectFailure("pdfplumber__empty.pdf", "empty", /0 bytes/));
    await t.step("a truncated file is 'corrupt'", () => {
      return expectFailure("pdfjs__bug1020226.pdf", "corrupt", /not a valid PDF: Invalid PDF structure/);
    });
    await t.step("a fuzzed file is 'corrupt'", () => {
      return expectFailure("pdfjs__poppler-742-0-fuzzed.pdf", "corrupt", /damaged.*Illegal character/);
    });
    await t.step("a password-protected PDF says so", () => {
      return expectFailure("pypdf__libreoffice-writer-password.pdf", "password", /password-protected/);
    });
    await t.step("a circular page tree keeps its readable pages and names the broken ones", async () => {
      const text = await extractor.extract(fixtureBytes("pdf/pdfjs__Pages-tree-refs.pdf"));
      assert.equal(text.pageCount, 2);
      assert.deepEqual(text.pages, ["Testcase: ’Pages loop’", ""]);
      assert.deepEqual(text.unreadable, [{ page: 2, reason: "the page tree is circular" }]);
    });
    await t.step("a valid PDF whose second page now loops keeps its first page", async () => {
      const text = await extractor.extract(secondPageLoops());
      assert.match(text.pages[0], /^Column one opens the report\./);
      assert.deepEqual(text.unreadable, [{ page: 2, reason: "the page tree is circular" }]);
    });
    await t.step("a document no page of which can be read fails as a whole, extracted or probed", async () => {
      const error = await failure(extractor.extract(everyPageLoops()));
      assert.equal(error.reason, "circular");
      assert.match(error.message, /page tree is circular/);
      assert.equal((await failure(extractor.probe(everyPageLoops()))).reason, "circular");
    });
    await t.step("a scan without a text layer says so", () => {
      return expectFailure("pdfjs__scan-bad.pdf", "no_text", /no text layer \(6 characters.*with images\).*scanned/);
    });
    await t.step("a short one-page PDF without images is searchable, not 'probably scanned'", async () => {
      const text = await extractor.extract(tinyPdf("Invoice 2024 #12"));
      assert.equal(text.pages[0], "Invoice 2024 #12");
    });
    await t.step("the same few characters over a page image are a scan", async () => {
      const error = await failure(extractor.extract(tinyPdf("Invoice 2024 #12", { image: true })));
      assert.equal(error.reason, "no_text");
      assert.match(error.message, /14 characters of text on 1 page\(s\), with images\): it is probably scanned/);
    });
    await t.step("a page with no text at all has no text layer, images or not", async () => {
      assert.equal((await failure(extractor.extract(tinyPdf(" ")))).reason, "no_text");
    });
    await t.step("a PDF over the page limit is 'too_large' and reports its page count", async () => {
      const error = await failure(extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"), { maxPages: 2 }));
      assert.equal(error.reason, "too_large");
      assert.equal(error.pageCount, 3);
      assert.match(error.message, /3 pages, over the limit of 2 pages \(PDF_MAX_PAGES\)/);
    });
    await t.step("a PDF over its time budget is stopped, and the next extraction still works", async () => {
      const error = await failure(extractor.extract(fixtureBytes("pdf/pdfjs__freeculture.pdf"), { timeoutMs: 50 }));
      assert.equal(error.reason, "timeout");
      assert.match(error.message, /longer than 50 ms \(PDF_TIMEOUT_MS\)/);
      const text = await extractor.extract(fixtureBytes("pdf/pdfjs__issue20232.pdf"));
      assert.match(text.pages[0], /Масса Масштаб/);
    });
    await t.step("a cancelled extraction rejects with the abort reason and frees its worker", async () => {
      const controller = new AbortController();
      const pending = extractor.extract(fixtureBytes("pdf/pdfjs__freeculture.pdf"), { signal: controller.signal });
      setTimeout(() => controller.abort(new DOMException("cancelled by test", "AbortError")), 20);
      await assert.rejects(pending, /cancelled by test/);
      assert.equal((await extractor.extract(fixtureBytes("pdf/pdfjs__issue12823.pdf"))).pageCount, 1);
    });
    await t.step("extractions queue when every worker is busy", async () => {
      const [a, b] = await Promise.all([
        extractor.extract(fixtureBytes("pdf/pdfjs__issue12823.pdf")),
        extractor.extract(fixtureBytes("pdf/pdfjs__issue20232.pdf")),
      ]);
      assert.match(a.pages[0], /知识库简介/);
      assert.match(b.pages[0], /Формат A4/);
    });
    await t.step("index builds in the worker exactly what buildIndex builds", async () => {
      const text = "Eﬃcient com-\npile\fSTRASSE  straße";
      assert.deepEqual(await extractor.index(text), buildIndex(text));
    });
    await t.step("probe opens the document and walks its page tree without extracting it", async () => {
      assert.deepEqual(await extractor.probe(fixtureBytes("pdf/pdfjs__freeculture.pdf")), {
        pageCount: 352,
        unreadable: [],
      });
      assert.deepEqual(await extractor.probe(fixtureBytes("pdf/pdfjs__Pages-tree-refs.pdf")), {
        pageCount: 2,
        unreadable: [{ page: 2, reason: "the page tree is circular" }],
      });
    });
  } finally {
    await extractor.close();
  }
});

Deno.test("the extractor refuses bytes over PDF_MAX_BYTES without starting a worker", async () => {
  const extractor = createPdfExtractor({ ...LIMITS, maxBytes: 1000 });
  try {
    const error = await failure(extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf")));
    assert.equal(error.reason, "too_large");
    assert.match(error.message, /77 KB, over the limit of 1000 bytes \(PDF_MAX_BYTES\)/);
  } finally {
    await extractor.close();
  }
});

Deno.test("a document split across two workers reads exactly like one read by a single worker", async () => {
  const single = createPdfExtractor(LIMITS, { poolSize: 1 });
  const split = createPdfExtractor(LIMITS, { poolSize: 2, splitMinPages: 2, splitMinBytes: 0 });
  try {
    const bytes = fixtureBytes("pdf/scienceparse__map-reduce.pdf");
    const progress: number[] = [];
    const [one, two] = await Promise.all([
      single.extract(bytes.slice()),
      split.extract(bytes.slice(), { onProgress: (done) => progress.push(done), index: true }),
    ]);
    assert.equal(two.pageCount, 13);
    assert.deepEqual(two.pages, one.pages);
    const whole = buildIndex(one.pages.join("\f"));
    assert.equal(two.index?.text, whole.text, "the two halves' indexes join into the document's");
    assert.deepEqual([...two.index!.from], [...whole.from]);
    assert.deepEqual([...two.index!.to], [...whole.to]);
  } finally {
    await single.close();
    await split.close();
  }
});

Deno.test("a document shorter than the split's page count is read by one extractor, the second never started", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 2, splitMinPages: 14, splitMinBytes: 0 });
  try {
    const text = await extractor.extract(fixtureBytes("pdf/scienceparse__map-reduce.pdf"));
    assert.equal(text.pageCount, 13);
    assert.equal(extractor.pool.spawned, 1);
  } finally {
    await extractor.close();
  }
});

Deno.test("pageCountHint reads the largest page count a page tree declares in the raw bytes", () => {
  assert.equal(pageCountHint(fixtureBytes("pdf/pdfjs__freeculture.pdf")), 352);
  assert.equal(pageCountHint(tinyPdf("one page")), 1);
  const nested = new TextEncoder().encode("<< /Type /Pages /Count\n12 >> << /Type /Pages /Count 5 >> /CountX 99");
  assert.equal(pageCountHint(nested), 12);
  assert.equal(pageCountHint(fixtureBytes("pdf/pypdf__multicolumn.pdf")), undefined, "page tree in an object stream");
});

Deno.test("extraction runs in extractor processes, started on the first job", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 2 });
  try {
    assert.deepEqual(extractor.pool.pids, [], "no process before the first job");
    const text = await extractor.extract(fixtureBytes("pdf/scienceparse__map-reduce.pdf"));
    assert.equal(text.pageCount, 13);
    assert.ok(extractor.pool.pids.length >= 1, "a process with a pid of its own");
    assert.ok(extractor.pool.pids.every((pid) => pid !== Deno.pid));
  } finally {
    await extractor.close();
  }
});

Deno.test("an extractor process runs with a heap cap, one thread and a young generation of 1 MB semi-spaces", () => {
  for (const light of [false, true]) {
    const args = extractorArgs({ memoryMb: 768 }, light);
    const flags = args.find((a) => a.startsWith("--v8-flags="))?.slice("--v8-flags=".length).split(",") ?? [];
    assert.ok(flags.includes("--max-old-space-size=384"), "the heap gets half the budget");
    assert.ok(flags.includes("--single-threaded"));
    assert.ok(flags.includes("--max-semi-space-size=1"), "1 MB semi-spaces");
    assert.equal(flags.includes("--liftoff-only"), light);
  }
});

Deno.test("with light slots, a small paper is read by a Liftoff-only extractor into the same text as a full one", async () => {
  const bytes = fixtureBytes("pdf/scienceparse__map-reduce.pdf");
  const light = createPdfExtractor(LIMITS, { poolSize: 1, lightSlots: true });
  const full = createPdfExtractor(LIMITS, { poolSize: 1 });
  try {
    const [a, b] = [await light.extract(bytes.slice(), { index: true }), await full.extract(bytes.slice())];
    assert.deepEqual(light.pool.lightPids, light.pool.pids, "the small paper's process is light");
    assert.deepEqual(full.pool.lightPids, [], "light slots are off by default");
    assert.deepEqual(a.pages, b.pages);
    assert.equal(a.index?.text, buildIndex(b.pages.join("\f")).text);
  } finally {
    await light.close();
    await full.close();
  }
});

Deno.test("a long document never runs in a light extractor: an idle light one makes room for a full one", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1, lightSlots: true });
  try {
    await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"));
    const lightPid = extractor.pool.pids[0];
    assert.deepEqual(extractor.pool.lightPids, [lightPid]);
    const book = await extractor.extract(fixtureBytes("pdf/pdfjs__freeculture.pdf"));
    assert.equal(book.pageCount, 352);
    assert.equal(extractor.pool.spawned, 2);
    assert.notEqual(extractor.pool.pids[0], lightPid);
    assert.deepEqual(extractor.pool.lightPids, [], "the book's process is full");
  } finally {
    await extractor.close();
  }
});

Deno.test("a small paper that is one of many (a folder search) gets a full extractor, not a light one", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1, lightSlots: true });
  try {
    await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"), { oneOfMany: true });
    assert.equal(extractor.pool.pids.length, 1);
    assert.deepEqual(extractor.pool.lightPids, []);
  } finally {
    await extractor.close();
  }
});

Deno.test("without permission to start a process, the same extraction runs in worker threads", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1, channels: workerChannels() });
  try {
    const text = await extractor.extract(fixtureBytes("pdf/pypdf__multicolumn.pdf"), { index: true });
    assert.equal(text.pageCount, 3);
    assert.deepEqual(extractor.pool.pids, [], "no process");
    assert.equal(text.index?.text, buildIndex(text.pages.join("\f")).text);
    assert.deepEqual(await extractor.probe(fixtureBytes("pdf/pdfjs__Pages-tree-refs.pdf")), {
      pageCount: 2,
      unreadable: [{ page: 2, reason: "the page tree is circular" }],
    });
  } finally {
    await extractor.close();
  }
});

Deno.test("hasImageXObject finds an image dictionary in the raw bytes, not names that only start alike", () => {
  assert.equal(hasImageXObject(tinyPdf("text", { image: true })), true);
  assert.equal(hasImageXObject(tinyPdf("text")), false);
  assert.equal(hasImageXObject(fixtureBytes("pdf/pdfjs__scan-bad.pdf")), true);
  const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  assert.equal(hasImageXObject(latin1("/ProcSet [/PDF /Text /ImageB /ImageC]")), false);
  assert.equal(hasImageXObject(latin1("<</Subtype/Image/Width 1>>")), true);
});
