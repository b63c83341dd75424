import assert from "node:assert/strict";
import { ManualClock } from "../../../src/core/clock.ts";
import { ByteBudgetCache } from "../../../src/sources/pdf/memory_cache.ts";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import { PdfLibrary, TIMEOUT_VERDICT_MS } from "../../../src/sources/pdf/pdf_library.ts";
import { PdfExtractionError, type PdfExtractor, type PdfProbe, type PdfText } from "../../../src/sources/pdf/types.ts";

/**
 * A stand-in extractor: the "PDF" is its page texts separated by "|" (a page "BROKEN" cannot be read),
 * or FAIL:<reason>. Counts extractions and probes.
 */
function fakeExtractor(delayMs = 0): PdfExtractor & { calls: number; counts: number } {
  const read = (bytes: Uint8Array): PdfText => {
    const text = new TextDecoder().decode(bytes);
    if (text === "FAIL:timeout") throw new PdfExtractionError("timeout", "took too long");
    if (text.startsWith("FAIL:")) throw new PdfExtractionError("password", "needs a password", 2);
    const pages = text.split("|");
    const unreadable = pages.flatMap((p, i) =>
      p === "BROKEN" ? [{ page: i + 1, reason: "the page tree is circular" }] : []
    );
    const clean = pages.map((p) => p === "BROKEN" ? "" : p);
    return unreadable.length
      ? { pageCount: pages.length, pages: clean, unreadable }
      : { pageCount: pages.length, pages };
  };
  const fake = {
    calls: 0,
    counts: 0,
    async extract(bytes: Uint8Array): Promise<PdfText> {
      fake.calls++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return read(bytes);
    },
    probe(bytes: Uint8Array): Promise<PdfProbe> {
      fake.counts++;
      try {
        const { pageCount, unreadable } = read(bytes);
        return Promise.resolve({ pageCount, unreadable: unreadable ?? [] });
      } catch (error) {
        return Promise.reject(error);
      }
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

Deno.test("a timeout is remembered for a while (on the injected clock), then the PDF is tried again", async () => {
  const root = await tempRoot({ "slow.pdf": "FAIL:timeout" });
  const extractor = fakeExtractor();
  const clock = new ManualClock(1_000);
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor, clock });
  const first = await library.open("slow");
  assert.equal(first.status === "failed" && first.reason, "timeout");
  await clock.advance(TIMEOUT_VERDICT_MS - 1);
  await library.open("slow");
  assert.equal(extractor.calls, 1, "a repeat within the window costs no extraction");
  await clock.advance(1);
  await library.open("slow");
  assert.equal(extractor.calls, 2);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a failure verdict is kept on disk: a restarted server does not extract a hostile PDF again", async () => {
  const root = await tempRoot({ "locked.pdf": "FAIL:password" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_cache_" });
  await new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir }).open("locked");
  const after = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor: after, cacheDir });
  const outcome = await library.open("locked");
  assert.equal(outcome.status === "failed" && outcome.message, "needs a password");
  assert.deepEqual((await library.list()).entries.map((e) => e.error), ["needs a password"]);
  assert.equal(after.calls + after.counts, 0);
  await Deno.remove(root, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("list and search agree on a damaged page tree: same page count, same warning, salvaged text", async () => {
  const root = await tempRoot({ "damaged.pdf": "readable first page|BROKEN|third page" });
  const extractor = fakeExtractor();
  const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
  const [listed] = (await library.list()).entries;
  assert.equal(extractor.calls, 0, "listing reads no page content");
  assert.equal(listed.pageCount, 3);
  assert.match(
    listed.warning ?? "",
    /^1 of 3 pages cannot be read and were skipped \(page 2: the page tree is circular\)/,
  );
  const opened = await library.open("damaged");
  assert.ok(opened.status === "ready");
  assert.deepEqual(opened.doc.unreadable, [{ page: 2, reason: "the page tree is circular" }]);
  assert.equal(opened.doc.text, "readable first page\f\fthird page");
  assert.deepEqual((await library.list()).entries[0], listed);
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
  const entries = [...Deno.readDirSync(`${cacheDir}/pdf-text`)].map((e) => e.name).sort();
  assert.equal(entries.length, 2);
  assert.match(entries[0], /^[0-9a-f]{64}\.bin$/);
  assert.equal(entries[1], entries[0].replace(".bin", ".json"), "the verdict beside the text");

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
    if (!entry.name.endsWith(".bin")) continue;
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

Deno.test("list reports page counts from the cache or by probing, and failures with their reason", async () => {
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
  assert.equal(extractor.counts, 1, "only c.pdf needed probing");
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

Deno.test("with a disk cache, indexed PDFs without the query are ruled out unopened, also after a restart", async () => {
  const root = await tempRoot({ "a.pdf": "heparin lowers the risk|of thrombosis", "b.pdf": "aspirin and pain" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_cache_" });
  const first = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir });
  const { files } = await first.files();
  for (const file of files) await first.prepare(file);
  const extractor = fakeExtractor();
  const restarted = new PdfLibrary({ root, maxBytes: 1e6, extractor, cacheDir });
  const opened = async (library: PdfLibrary, query: string) => {
    const names: string[] = [];
    for await (const { file, outcome } of library.openMatching((await library.files()).files, [query])) {
      if (outcome) names.push(file.name);
    }
    return names;
  };
  assert.deepEqual(await opened(restarted, "Heparin"), ["a"]);
  assert.deepEqual(await opened(restarted, "ASPIRIN"), ["b"]);
  assert.equal(extractor.calls, 0, "answered from the filters and text on disk");
  const unindexed = new PdfLibrary({ root, maxBytes: 1e6, extractor, cacheDir: undefined });
  assert.deepEqual(await opened(unindexed, "heparin"), ["a", "b"], "without a disk cache nothing is ruled out");
  await Deno.remove(root, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});
