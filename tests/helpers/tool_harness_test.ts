/** The shared tool harness itself: MCP and invokeTool give the same result, mock routes follow the table. */
import assert from "node:assert/strict";
import { withTools } from "./tool_harness.ts";

Deno.test("the harness answers from the mock routes, over MCP and through invokeTool alike", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "gene" } }, async (h) => {
    const args = { query: "TP53", organism: "human" };
    const viaMcp = await h.call("search_genes", args);
    const viaInvoke = await h.invoke("search_genes", args);
    assert.equal(viaMcp.isError, undefined, JSON.stringify(viaMcp.structuredContent));
    assert.deepEqual(viaInvoke.structuredContent, viaMcp.structuredContent);
    assert.equal(viaInvoke.content[0].text, viaMcp.content[0].text);
    assert.ok(h.requests.every((r) => r.url.host === "eutils.ncbi.nlm.nih.gov"));
  });
});

Deno.test("the harness routes a test's own routes first and refuses what nobody answers", async () => {
  const refusal = () => new Response("<eSearchResult><ERROR>boom</ERROR></eSearchResult>", { status: 400 });
  await withTools({ routes: [refusal], mockRoutes: [], env: { SCIENCE_MCP_TOOLSETS: "gene" } }, async (h) => {
    const result = await h.call("search_genes", { query: "TP53" });
    assert.equal(result.isError, true);
    assert.equal(h.requests.length, 1);
  });
});
