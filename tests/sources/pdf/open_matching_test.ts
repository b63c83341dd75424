/** PdfLibrary.openMatching: the files a search_pdfs must read, from the trigram filters, kept true to the folder. */
import assert from "node:assert/strict";
import { normalizeQuery } from "../../../src/sources/pdf/normalize.ts";
import { PdfLibrary } from "../../../src/sources/pdf/pdf_library.ts";
import {
  PdfExtractionError,
  type PdfExtractOptions,
  type PdfExtractor,
  type PdfText,
} from "../../../src/sources/pdf/types.ts";

/** A stand-in extractor: the "PDF" is its page texts separated by "|", or FAIL (a password). Counts extractions. */
function fakeExtractor(): PdfExtractor & { calls: number; options: PdfExtractOptions[] } {
  const fake = {
    calls: 0,
    options: [] as PdfExtractOptions[],
    extract(bytes: Uint8Array, options: PdfExtractOptions = {}): Promise<PdfText> {
      fake.calls++;
      fake.options.push(options);
      const text = new TextDecoder().decode(bytes);
      if (text === "FAIL") return Promise.reject(new PdfExtractionError("password", "needs a password", 1));
      const pages = text.split("|");
      return Promise.resolve({ pageCount: pages.length, pages });
    },
    close: () => Promise.resolve(),
  };
  return fake;
}

interface Folders {
  root: string;
  cacheDir: string;
}

async function withFolders(files: Record<string, string>, fn: (folders: Folders) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "open_matching_" });
  const cacheDir = await Deno.makeTempDir({ prefix: "open_matching_cache_" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${root}/${name}`, text);
  try {
    await fn({ root, cacheDir });
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
}

/** What a search for `query` reads: each file's name with "ruled out", its failure, or whether its text matches. */
async function reads(library: PdfLibrary, query: string): Promise<string[]> {
  const { files } = await library.files();
  const seen: string[] = [];
  for await (const { file, outcome } of library.openMatching(files, [query])) {
    if (!outcome) seen.push(`${file.name}: ruled out`);
    else if (outcome.status !== "ready") seen.push(`${file.name}: ${outcome.status}`);
    else seen.push(`${file.name}: ${outcome.doc.index.text.includes(normalizeQuery(query)) ? "match" : "no match"}`);
  }
  return seen;
}

/** Which files hold `query`, and which could not be read: what a search answers. */
async function answer(library: PdfLibrary, query: string): Promise<string[]> {
  return (await reads(library, query)).filter((line) => !/ruled out|no match/.test(line));
}

async function indexAll(library: PdfLibrary): Promise<void> {
  for (const file of (await library.files()).files) await library.prepare(file);
}

Deno.test("openMatching yields every file in order: ruled-out ones without opening them, failures with theirs", () =>
  withFolders(
    { "a.pdf": "heparin lowers|the risk", "b.pdf": "aspirin and pain", "c.pdf": "FAIL", "d.pdf": "more heparin" },
    async ({ root, cacheDir }) => {
      await indexAll(new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir }));
      const extractor = fakeExtractor();
      const restarted = new PdfLibrary({ root, maxBytes: 1e6, extractor, cacheDir });
      assert.deepEqual(await reads(restarted, "Heparin"), [
        "a: match",
        "b: ruled out",
        "c: failed",
        "d: match",
      ]);
      assert.equal(extractor.calls, 0, "indexed documents are read from the disk cache");
    },
  ));

Deno.test("a search over several new files asks for them as one of many (no light extractor); one file alone may get one", () =>
  withFolders({ "a.pdf": "heparin", "b.pdf": "aspirin" }, async ({ root }) => {
    const extractor = fakeExtractor();
    const library = new PdfLibrary({ root, maxBytes: 1e6, extractor });
    const { files } = await library.files();
    for await (const _ of library.openMatching(files, ["heparin"])) { /* reads every file */ }
    assert.deepEqual(extractor.options.map((o) => o.oneOfMany), [true, true]);
    const single = fakeExtractor();
    for await (const _ of new PdfLibrary({ root, maxBytes: 1e6, extractor: single }).openMatching([files[0]], ["x"])) {
      // one file
    }
    assert.deepEqual(single.options.map((o) => o.oneOfMany), [undefined]);
  }));

Deno.test("after indexing, a file added, edited in place or removed is seen by the next search", () =>
  withFolders(
    { "a.pdf": "heparin lowers|the risk", "b.pdf": "aspirin, pain", "c.pdf": "heparin again" },
    async ({ root, cacheDir }) => {
      const library = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir });
      await indexAll(library);
      assert.deepEqual(await answer(library, "heparin"), ["a: match", "c: match"]);

      await Deno.writeTextFile(`${root}/b.pdf`, "heparin, pain"); // same size: only the mtime tells
      const later = new Date(Date.now() + 60_000);
      await Deno.utime(`${root}/b.pdf`, later, later);
      await Deno.writeTextFile(`${root}/a.pdf`, "warfarin|only");
      await Deno.writeTextFile(`${root}/e.pdf`, "new heparin");
      await Deno.remove(`${root}/c.pdf`);
      const after = await answer(library, "heparin");
      assert.deepEqual(after, ["b: match", "e: match"]);

      const unindexed = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor() });
      assert.deepEqual(await answer(unindexed, "heparin"), after, "the same answer as a library with no index");
      assert.deepEqual(await answer(library, "warfarin"), await answer(unindexed, "warfarin"));
    },
  ));

Deno.test("with the filters in memory, a search answers as one that opens every file", () =>
  withFolders(
    Object.fromEntries(
      Array.from({ length: 40 }, (_, n) => [`doc${n}.pdf`, `page of ${n}|${n % 3 ? "aspirin" : "low-dose heparin"}`]),
    ),
    async ({ root, cacheDir }) => {
      const indexed = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir });
      await indexAll(indexed);
      const unindexed = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor() });
      for (const query of ["heparin", "LOW-DOSE", "aspirin", "of 7", "warfarin"]) {
        assert.deepEqual(await answer(indexed, query), await answer(unindexed, query), query);
      }
      assert.equal((await answer(indexed, "heparin")).length, 14);
    },
  ));

Deno.test("a restarted library checks its filters from the snapshot in one read; a damaged snapshot is ignored", () =>
  withFolders(
    { "a.pdf": "heparin lowers|the risk", "b.pdf": "aspirin and pain", "c.pdf": "more heparin" },
    async ({ root, cacheDir }) => {
      const first = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor(), cacheDir });
      await indexAll(first);
      await first.saveFilters((await first.files()).files);
      // Without the verdicts, only the snapshot can tell what each PDF holds.
      const dir = `${cacheDir}/pdf-text`;
      for (const entry of Deno.readDirSync(dir)) {
        if (entry.name !== "filters.json" && entry.name.endsWith(".json")) Deno.removeSync(`${dir}/${entry.name}`);
      }
      const extractor = fakeExtractor();
      const restarted = new PdfLibrary({ root, maxBytes: 1e6, extractor, cacheDir });
      assert.deepEqual(await reads(restarted, "heparin"), ["a: match", "b: ruled out", "c: match"]);
      assert.equal(extractor.calls, 0, "no PDF extracted: the snapshot's filters and the text on disk answer");

      const snapshot = `${dir}/filters.json`;
      // a.pdf's filter emptied, the checksum left as it was: trusted, it would rule a.pdf out.
      const stored = JSON.parse(await Deno.readTextFile(snapshot));
      const [aKey, aFilter] = Object.entries(stored.filters as Record<string, string>)[0];
      stored.filters[aKey] = new Uint8Array(Uint8Array.fromBase64(aFilter).length).toBase64();
      await Deno.writeTextFile(snapshot, JSON.stringify(stored));
      await Deno.writeTextFile(`${root}/b.pdf`, "aspirin and heparin");
      const again = fakeExtractor();
      const damaged = new PdfLibrary({ root, maxBytes: 1e6, extractor: again, cacheDir });
      const unindexed = new PdfLibrary({ root, maxBytes: 1e6, extractor: fakeExtractor() });
      assert.deepEqual(await answer(damaged, "heparin"), ["a: match", "b: match", "c: match"]);
      assert.deepEqual(await answer(damaged, "heparin"), await answer(unindexed, "heparin"));
      assert.equal(again.calls, 1, "only the edited PDF is extracted: the others' text is on disk");
    },
  ));
