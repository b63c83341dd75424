import { withTools } from "../tests/helpers/tool_harness.ts";
const PDF_ROOT = new URL("../files", import.meta.url).pathname;
Deno.test("blow-ups", async () => {
  await withTools({ env: { PDF_ROOT }, driveClock: true }, async (h) => {
    for (const [tool, args] of [
      ["get_pubmed_links", { entrez_id: "NCBIGene:7157", limit: 10000 }],
      ["search_pdf", { pdf_name: "dvt_prophylaxis_review", query: "the", topk: 100, context_length: 20000 }],
      ["search_pdfs", { query: "the", per_file: 20, context_length: 2000 }],
      ["fetch_latest", { source: "openalex", category: "T11636", count: 200 }],
      ["fetch_content", { source: "arxiv", id: "2501.11120v1", max_chars: 100000 }],
    ] as const) {
      const r = await h.call(tool, args as Record<string, unknown>);
      console.log(`${tool}: ${r.content[0].text.length}`);
    }
  });
});
