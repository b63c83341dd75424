/**
 * The gene half of Fuzzy-to-Fact over a real HTTP mock upstream: search_genes → get_gene →
 * get_pubmed_links, counting what reaches "NCBI". (fetchArticleDetails joins once PubMed lands.)
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../../scripts/mock_upstream.ts";
import { systemClock } from "../../../src/core/clock.ts";
import { connectClient, testRuntime } from "../../helpers/runtime.ts";
import type { CallResult } from "./gene_mock.ts";

Deno.test("Fuzzy-to-Fact gene chain: 4 NCBI requests cold, 0 warm, PMID CURIEs at the end", async () => {
  const mock = await startMockUpstream({ rates: false });
  const runtime = testRuntime({
    fetch: (r) => fetch(r),
    clock: systemClock,
    env: { ...mock.env, SCIENCE_MCP_TOOLSETS: "gene" },
  });
  const { client, close } = await connectClient(runtime);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as unknown as CallResult;
  const chain = async () => {
    const search = await call("search_genes", { query: "TP53", organism: "human" });
    const id = (search.structuredContent.items as { id: string }[])[0].id;
    const gene = await call("get_gene", { entrez_id: id });
    const links = await call("get_pubmed_links", { entrez_id: id, limit: 5 });
    return { id, gene, links };
  };
  try {
    const cold = await chain();
    assert.equal(cold.id, "NCBIGene:7157");
    assert.equal(cold.gene.structuredContent.symbol, "TP53");
    assert.deepEqual(cold.links.structuredContent.items, [
      "PMID:25842826",
      "PMID:25799988",
      "PMID:25790540",
      "PMID:25670079",
      "PMID:25668009",
    ]);
    assert.deepEqual(mock.requests.map((r) => `${r.path} ${r.params.dbfrom ?? r.params.db}`), [
      "/esearch.fcgi gene",
      "/esummary.fcgi gene",
      "/efetch.fcgi gene",
      "/elink.fcgi gene",
    ]);
    const warm = await chain();
    assert.deepEqual(warm.gene.structuredContent, cold.gene.structuredContent);
    assert.equal(mock.requests.length, 4, "a warm chain is answered from the cache");
  } finally {
    await close();
    await mock.close();
  }
});
