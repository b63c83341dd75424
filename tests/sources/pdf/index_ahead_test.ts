import assert from "node:assert/strict";
import { createRuntime } from "../../../src/runtime.ts";
import { workerExtractor } from "../../../src/sources/pdf/extractor.ts";
import { indexAhead, startIndexAhead } from "../../../src/sources/pdf/index_ahead.ts";
import { pdfLibrary } from "../../../src/sources/pdf/pdf_library.ts";
import { testConfig } from "../../helpers/runtime.ts";

const FIXTURES = new URL("../../../fixtures/pdf/", import.meta.url);
const PDFS = ["pypdf__multicolumn.pdf", "scienceparse__map-reduce.pdf", "pdfjs__issue20232.pdf"];

async function withFolders(fn: (root: string, cacheDir: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pdf_ahead_root_" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_ahead_cache_" });
  for (const name of PDFS) await Deno.copyFile(new URL(name, FIXTURES), `${root}/${name}`);
  try {
    await fn(root, cacheDir);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
}

function start(env: Record<string, string>) {
  const runtime = createRuntime({ config: testConfig(env) });
  return { runtime, ctx: { ...runtime.deps, shared: runtime.shared } };
}

Deno.test("with a disk cache, PDFs are indexed ahead once; a restarted server answers from the index", async () => {
  await withFolders(async (root, cacheDir) => {
    const first = start({ PDF_ROOT: root, SCIENCE_MCP_CACHE_DIR: cacheDir });
    try {
      assert.deepEqual(await indexAhead(first.ctx), { indexed: 3, known: 0, skipped: 0 });
      const snapshot = JSON.parse(await Deno.readTextFile(`${cacheDir}/pdf-text/filters.json`));
      assert.equal(Object.keys(snapshot.filters).length, 3, "the pass leaves its filters in one file");
      assert.equal(workerExtractor(first.ctx).pool.workers, 0, "extractors are released when done");
      assert.deepEqual(await indexAhead(first.ctx), { indexed: 0, known: 3, skipped: 0 }, "once");
    } finally {
      await first.runtime.close();
    }
    const restarted = start({ PDF_ROOT: root, SCIENCE_MCP_CACHE_DIR: cacheDir });
    try {
      const outcome = await pdfLibrary(restarted.ctx).open("scienceparse__map-reduce");
      assert.equal(outcome.status, "ready");
      assert.equal(workerExtractor(restarted.ctx).pool.spawned, 0, "the first search started no extractor");
    } finally {
      await restarted.runtime.close();
    }
  });
});

Deno.test("index ahead stops at PDF_INDEX_AHEAD files (smallest first); the rest wait for their first use", async () => {
  await withFolders(async (root, cacheDir) => {
    const { runtime, ctx } = start({ PDF_ROOT: root, SCIENCE_MCP_CACHE_DIR: cacheDir, PDF_INDEX_AHEAD: "1" });
    try {
      assert.deepEqual(await indexAhead(ctx), { indexed: 1, known: 0, skipped: 2 });
    } finally {
      await runtime.close();
    }
  });
});

Deno.test("without a disk cache, or with PDF_INDEX_AHEAD=0, nothing is indexed ahead and no extractor starts", async () => {
  await withFolders(async (root, cacheDir) => {
    const envs: Record<string, string>[] = [{ PDF_ROOT: root }, {
      PDF_ROOT: root,
      SCIENCE_MCP_CACHE_DIR: cacheDir,
      PDF_INDEX_AHEAD: "0",
    }];
    for (const env of envs) {
      const { runtime, ctx } = start(env);
      try {
        startIndexAhead(ctx);
        assert.deepEqual(await indexAhead(ctx), { indexed: 0, known: 0, skipped: 0 });
        assert.equal(workerExtractor(ctx).pool.spawned, 0);
      } finally {
        await runtime.close();
      }
    }
  });
});
