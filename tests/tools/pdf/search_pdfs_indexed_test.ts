/**
 * search_pdfs over PDFs indexed in the disk cache: PDFs the trigram filters rule out still count as searched,
 * and the answers are those of a search that opens every PDF, whatever changed in the folder since.
 */
import assert from "node:assert/strict";
import type { Env } from "../../../src/config.ts";
import { callTool, createRuntime, type Runtime } from "../../../src/runtime.ts";
import { indexAhead } from "../../../src/sources/pdf/index_ahead.ts";
import { testConfig } from "../../helpers/runtime.ts";
import { tinyPdf } from "../../sources/pdf/tiny_pdf.ts";
import { FILES_DIR, FIXTURES_PDF, pdfClient } from "./pdf_client.ts";

Deno.test("search_pdfs answers the same from the disk index after a restart, ruled-out PDFs counted as searched", async () => {
  const root = await Deno.makeTempDir({ prefix: "pdf_search_indexed_" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_search_indexed_cache_" });
  await Deno.copyFile(`${FILES_DIR}/dvt_prophylaxis_review.pdf`, `${root}/dvt.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/scienceparse__map-reduce.pdf`, `${root}/mapreduce.pdf`);
  const searchAll = async (query: string) => {
    const pdf = await pdfClient(root, { SCIENCE_MCP_CACHE_DIR: cacheDir });
    try {
      const result = await pdf.client.callTool({ name: "search_pdfs", arguments: { query } });
      assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
      // How long the call took is not the answer: a slow first call (a loaded machine) carries a note on the
      // extractor's start that a call served from the index never needs.
      const { warnings: _slow, ...answer } = result.structuredContent as {
        files_searched: number;
        files: { pdf_name: string }[];
        warnings?: string[];
      };
      return answer;
    } finally {
      await pdf.close();
    }
  };
  try {
    const first = await searchAll("heparin");
    const restarted = await searchAll("heparin");
    assert.deepEqual(restarted, first);
    assert.equal(restarted.files_searched, 2);
    assert.deepEqual(restarted.files.map((f) => f.pdf_name), ["dvt"]);
    const other = await searchAll("MapReduce");
    assert.deepEqual(other.files.map((f) => f.pdf_name), ["mapreduce"]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("search_pdfs after indexing ahead answers as an unindexed search, also once files are added, edited, removed", async () => {
  const root = await Deno.makeTempDir({ prefix: "pdf_search_indexed_" });
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_search_indexed_cache_" });
  const write = (name: string, text: string) => Deno.writeFile(`${root}/${name}.pdf`, tinyPdf(text));
  await write("alpha", "Heparin lowers the risk of deep vein thrombosis.");
  await write("beta", "Aspirin relieves pain.");
  await write("gamma", "Low molecular weight heparin was given daily.");
  await write("delta", "Warfarin needs monitoring.");
  const start = (env: Env) => {
    const runtime = createRuntime({ config: testConfig({ PDF_ROOT: root, ...env }) });
    return { runtime, ctx: { ...runtime.deps, shared: runtime.shared } };
  };
  const indexed = start({ SCIENCE_MCP_CACHE_DIR: cacheDir });
  const searchAll = async (runtime: Runtime, query: string) => {
    const result = await callTool(runtime, "search_pdfs", { query });
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    const { warnings: _slow, ...answer } = result.structuredContent as Record<string, unknown>;
    return answer;
  };
  const sameAsUnindexed = async (queries: string[]) => {
    const unindexed = start({});
    try {
      for (const query of queries) {
        assert.deepEqual(await searchAll(indexed.runtime, query), await searchAll(unindexed.runtime, query), query);
      }
    } finally {
      await unindexed.runtime.close();
    }
  };
  try {
    assert.deepEqual(await indexAhead(indexed.ctx), { indexed: 4, known: 0, skipped: 0 });
    const queries = ["heparin", "pain", "heparin risk", '"vein thrombosis"', "insulin"];
    await sameAsUnindexed(queries);
    await write("beta", "Aspirin or heparin for pain."); // edited
    await write("epsilon", "Unfractionated heparin drips."); // added
    await Deno.remove(`${root}/gamma.pdf`); // removed
    const after = await searchAll(indexed.runtime, "heparin") as { files: { pdf_name: string }[] };
    assert.deepEqual(after.files.map((f) => f.pdf_name).sort(), ["alpha", "beta", "epsilon"]);
    await sameAsUnindexed(queries);
  } finally {
    await indexed.runtime.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});
