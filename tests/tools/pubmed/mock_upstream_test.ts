/** The pubmed tools and resources against the real mock upstream over HTTP (examples: tests/catalog_contract_test.ts). */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../../scripts/mock_upstream.ts";
import { pubmedResources } from "../../../src/tools/pubmed/mod.ts";
import { connectClient, testRuntime } from "../../helpers/runtime.ts";

Deno.test("the pubmed tools and resources work through the real mock upstream over HTTP", async () => {
  const mock = await startMockUpstream({ rates: false });
  const runtime = testRuntime({ env: { ...mock.env, SCIENCE_MCP_TOOLSETS: "pubmed" }, fetch: (r) => fetch(r) });
  const { client, close } = await connectClient(runtime);
  try {
    const search = await client.callTool({
      name: "searchPubMedArticles",
      arguments: { queryTerm: "stem cells AND hasabstract", fetchBriefSummaries: 2 },
    });
    assert.equal(search.isError, undefined, JSON.stringify(search.structuredContent));
    assert.equal((search.structuredContent as { totalFound: number }).totalFound, 5);
    const details = await client.callTool({ name: "fetchArticleDetails", arguments: { pmids: ["26468569"] } });
    assert.equal((details.structuredContent as { articles: { recordType: string }[] }).articles[0].recordType, "book");
    for (const resource of pubmedResources) {
      const read = await client.readResource({ uri: resource.uri! });
      assert.equal(read.contents.length, 1);
    }
    assert.ok(mock.requests.some((r) => r.path === "/esummary.fcgi" && r.route === "pubmed esummary"));
  } finally {
    await close();
    await mock.close();
  }
});
