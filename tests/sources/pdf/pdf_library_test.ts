import assert from "node:assert/strict";
import { ByteBudgetCache } from "../../../src/sources/pdf/memory_cache.ts";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import { PdfLibrary } from "../../../src/sources/pdf/pdf_library.ts";
import { PdfExtractionError, type PdfExtractor, type PdfText } from "../../../src/sources/pdf/types.ts";

/** A stand-in extractor: the "PDF" is its page texts separated by "|", or FAIL:<reason>. Counts calls. */
function fakeExtractor(delayMs = 0): PdfExtractor & { calls: number; counts: number } {
  const fake = {
    calls: 0,
    counts: 0,
    async extract(bytes: Uint8Array): Promise<PdfText> {
      fake.calls++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const text = new TextDecoder().decode(bytes);
      if (text === "FAIL:timeout") throw new PdfExtractionError("timeout", "took too long");
      if (text.startsWith("FAIL:")) throw new PdfExtractionError("password", "needs a password", 2);
      const pages = text.split("|");
      return { pageCount: pages.length, pages };
    },
    countPages(bytes: Uint8Array): Promise<number> {
      fake.counts++;
      return Promise.resolve(new TextDecoder().decode(bytes).split("|").length);
    },
    close: () => Promise.resolve(),
  };
  return fake;
}

async function tempRoot(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "pdf_library_" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${root}/${name}`, text);
  return root;
}

Deno.test("a second open of an unchanged PDF comes from memory", async () => {
  const root = await tempRoot({ "a.pdf": "first page|second page" });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  const first = await library.open("a");
  const second = await library.open("a");
  assert.equal(first.status, "ready");
  assert.equal(second.status === "ready" && second.doc.pageCount, 2);
  assert.equal(extractor.calls, 1);
  await Deno.remove(root, { recursive: true });
});

Deno.test("an edited PDF (new size or mtime) is extracted again", async () => {
  const root = await tempRoot({ "a.pdf": "old" });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  await library.open("a");
  await Deno.writeTextFile(`${root}/a.pdf`, "new text");
  const reopened = await library.open("a");
  assert.equal(reopened.status === "ready" && reopened.doc.text, "new text");
  assert.equal(extractor.calls, 2);
  await Deno.remove(root, { recursive: true });
});

Deno.test("concurrent opens of one PDF share one extraction", async () => {
  const root = await tempRoot({ "a.pdf": "text" });
  const extractor = fakeExtractor(30);
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  const results = await Promise.all([library.open("a"), library.open("a"), library.open("a")]);
  assert.deepEqual(results.map((r) => r.status), ["ready", "ready", "ready"]);
  assert.equal(extractor.calls, 1);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a failure is remembered, so a broken PDF is not extracted on every search", async () => {
  const root = await tempRoot({ "locked.pdf": "FAIL:password" });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  const first = await library.open("locked");
  await library.open("locked");
  assert.equal(first.status, "failed");
  assert.equal(first.status === "failed" && first.reason, "password");
  assert.equal(first.status === "failed" && first.pageCount, 2);
  assert.equal(extractor.calls, 1);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a timeout is not remembered: the next search tries again", async () => {
  const root = await tempRoot({ "slow.pdf": "FAIL:timeout" });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  const first = await library.open("slow");
  await library.open("slow");
  assert.equal(first.status === "failed" && first.reason, "timeout");
  assert.equal(extractor.calls, 2);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a PDF over PDF_MAX_BYTES fails as too_large without being extracted", async () => {
  const root = await tempRoot({ "big.pdf": "x".repeat(2000) });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1000, extractor });
  const outcome = await library.open("big");
  assert.equal(outcome.status === "failed" && outcome.reason, "too_large");
  assert.equal(extractor.calls, 0);
  await Deno.remove(root, { recursive: true });
});

Deno.test("the disk cache makes a restarted server skip extraction", async () => {
  const root = await tempRoot({ "a.pdf": "cached page one|cached page two" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_cache_" });
  const before = fakeExtractor();
  await new PdfLibrary({ root, maxBytes: 1e6, extractor: before, cacheDir }).open("a");
  const entries = [...Deno.readDirSync(`${cacheDir}/pdf-text`)];
  assert.equal(entries.length, 1);
  assert.match(entries[0].name, /^[0-9a-f]{64}\.bin$/);

  const after = fakeExtractor();
  const restarted = await new PdfLibrary({ root, maxBytes: 1e6, extractor: after, cacheDir }).open("a");
  assert.equal(after.calls, 0);
  assert.ok(restarted.status === "ready");
  assert.equal(restarted.doc.text, "cached page one\fcached page two");
  assert.deepEqual(restarted.doc.index, buildIndex("cached page one\fcached page two"), "the index comes back intact");
  await Deno.remove(root, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a damaged disk cache entry is ignored and the PDF extracted again", async () => {
  const root = await tempRoot({ "a.pdf": "text" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_cache_" });
  await new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir }).open("a");
  for (const entry of Deno.readDirSync(`${cacheDir}/pdf-text`)) {
    const path = `${cacheDir}/pdf-text/${entry.name}`;
    await Deno.writeFile(path, (await Deno.readFile(path)).subarray(0, 40)); // truncated mid-header
  }
  const extractor = fakeExtractor();
  const outcome = await new PdfLibrary({ root, maxBytes: 1e6, extractor, cacheDir }).open("a");
  assert.equal(outcome.status, "ready");
  assert.equal(extractor.calls, 1);
  await Deno.remove(root, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("list reports page counts from the cache or by counting, and failures with their reason", async () => {
  const root = await tempRoot({ "a.pdf": "one|two|three", "b.pdf": "FAIL:password", "c.pdf": "only" });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  await library.open("a");
  await library.open("b");
  const { entries } = await library.list();
  assert.deepEqual(
    entries.map((e) => [e.file.name, e.pageCount, e.error ?? null]),
    [["a", 3, null], ["b", 2, "needs a password"], ["c", 1, null]],
  );
  assert.equal(extractor.counts, 1, "only c.pdf needed counting");
  await Deno.remove(root, { recursive: true });
});

Deno.test("ByteBudgetCache evicts the least recently used entries to stay within its budget", () => {
  const cache = new ByteBudgetCache<string>(100);
  cache.set("a", "A", 40);
  cache.set("b", "B", 40);
  assert.equal(cache.get("a"), "A");
  cache.set("c", "C", 40);
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.get("a"), "A");
  assert.equal(cache.get("c"), "C");
  assert.equal(cache.bytes, 80);
  cache.set("huge", "H", 101);
  assert.equal(cache.get("huge"), undefined);
  assert.equal(cache.size, 2);
});
