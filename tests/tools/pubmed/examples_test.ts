/** Every pubmed ToolDef example runs against the mock upstream's PubMed routes and succeeds. */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../../scripts/mock_upstream.ts";
import { pubmedResources, pubmedTools } from "../../../src/tools/pubmed/mod.ts";
import { connectClient, testRuntime } from "../../helpers/runtime.ts";
import { mockRoutes } from "./eutils_routes.ts";
import { withSession } from "./mcp_session.ts";

Deno.test("every pubmed tool example succeeds against the PubMed mock routes", async (t) => {
  await withSession([mockRoutes()], async ({ call }) => {
    for (const tool of pubmedTools) {
      for (const example of tool.examples) {
        await t.step(`${tool.name} ${JSON.stringify(example)}`, async () => {
          const result = await call(tool.name, example as Record<string, unknown>);
          assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
          assert.ok(result.content[0].text, "a text rendering beside structuredContent");
        });
      }
    }
  });
});

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
