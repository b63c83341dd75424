import assert from "node:assert/strict";
import { memoryLogger } from "../../../src/core/log.ts";
import { type CachedDocument, DiskTextCache, FORMAT } from "../../../src/sources/pdf/disk_cache.ts";
import { PDF_ENGINE, PDF_FALLBACK_ENGINE } from "../../../src/sources/pdf/engine.ts";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";

const DOC: CachedDocument = {
  text: { pageCount: 2, pages: ["heparin lowers the risk", "of deep vein thrombosis"] },
  index: buildIndex("heparin lowers the risk\fof deep vein thrombosis"),
};
const KEY = "/files/a.pdf\u000012345\u00001700000000000";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pdf_disk_cache_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Replaces `from` by `to` (same length) inside every entry of `dir` whose name ends with `extension`. */
async function editInPlace(dir: string, extension: string, from: string, to: string): Promise<void> {
  assert.equal(from.length, to.length);
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(extension)) continue;
    const path = `${dir}/${entry.name}`;
    const text = new TextDecoder("latin1").decode(await Deno.readFile(path));
    assert.ok(text.includes(from), `${from} is in ${entry.name}`);
    const edited = text.replace(from, to);
    await Deno.writeFile(path, Uint8Array.from(edited, (c) => c.charCodeAt(0)));
  }
}

Deno.test("an entry round-trips: text, index and verdict", async () => {
  await withDir(async (dir) => {
    const cache = new DiskTextCache(dir);
    await cache.set(KEY, DOC);
    await cache.setVerdict(KEY, { status: "ready", pageCount: 2 });
    const read = await new DiskTextCache(dir).get(KEY);
    assert.deepEqual(read?.text, DOC.text);
    assert.deepEqual([...read!.index.from], [...DOC.index.from]);
    assert.deepEqual(await new DiskTextCache(dir).getVerdict(KEY), { status: "ready", pageCount: 2 });
  });
});

Deno.test("an entry whose text was edited in place to the same length is not served", async () => {
  await withDir(async (dir) => {
    await new DiskTextCache(dir).set(KEY, DOC);
    await editInPlace(`${dir}/pdf-text`, ".bin", "heparin lowers", "aspirin lowers");
    assert.equal(await new DiskTextCache(dir).get(KEY), undefined);
  });
});

Deno.test("a verdict edited in place to the same length is not served", async () => {
  await withDir(async (dir) => {
    await new DiskTextCache(dir).setVerdict(KEY, { status: "ready", pageCount: 2 });
    await editInPlace(`${dir}/pdf-text`, ".json", '"pageCount":2', '"pageCount":9');
    assert.equal(await new DiskTextCache(dir).getVerdict(KEY), undefined);
  });
});

Deno.test("a cache folder that is a symbolic link out of the cache is refused, with one warning", async () => {
  await withDir(async (dir) => {
    const elsewhere = await Deno.makeTempDir({ prefix: "pdf_elsewhere_" });
    try {
      await Deno.mkdir(`${dir}/cache`);
      await Deno.symlink(elsewhere, `${dir}/cache/pdf-text`);
      await Deno.symlink(elsewhere, `${dir}/linked-cache`);
      for (const cacheDir of [`${dir}/cache`, `${dir}/linked-cache`]) {
        const log = memoryLogger();
        const cache = new DiskTextCache(cacheDir);
        await cache.set(KEY, DOC, log);
        await cache.setVerdict(KEY, { status: "ready", pageCount: 2 }, log);
        assert.equal(await cache.get(KEY, log), undefined);
        assert.deepEqual([...Deno.readDirSync(elsewhere)], [], "nothing was written where the link leads");
        const warnings = log.records.filter((r) => r.level === "warning");
        assert.equal(warnings.length, 1, JSON.stringify(warnings));
        assert.match(warnings[0].msg, /symbolic link/);
      }
    } finally {
      await Deno.remove(elsewhere, { recursive: true });
    }
  });
});

Deno.test("cache keys name both text engines and their versions, the ones deno.json imports", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../../deno.json", import.meta.url)));
  for (const engine of [PDF_ENGINE, PDF_FALLBACK_ENGINE]) {
    assert.equal(config.imports[engine.name], `npm:${engine.name}@${engine.version}`);
    assert.ok(FORMAT.includes(`${engine.name}@${engine.version}`));
  }
  await withDir(async (dir) => {
    await new DiskTextCache(dir).set(KEY, DOC);
    const [entry] = [...Deno.readDirSync(`${dir}/pdf-text`)];
    const header = new TextDecoder().decode(await Deno.readFile(`${dir}/pdf-text/${entry.name}`));
    assert.ok(header.includes(`"format":"${FORMAT}"`), "the entry records the engine it was made with");
  });
});
