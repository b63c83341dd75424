/** search_pdfs over PDFs indexed in the disk cache: PDFs the trigram filters rule out still count as searched. */
import assert from "node:assert/strict";
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
