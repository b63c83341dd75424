import assert from "node:assert/strict";
import { EXIT_OK } from "../../../src/cli/main.ts";
import { withTools } from "../../helpers/tool_harness.ts";
import { cliCall } from "../citations/cli_io.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "pubmed" };

Deno.test("fetchArticleDetails flags a retracted article with its notice, over MCP", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("fetchArticleDetails", { pmids: ["9500320", "34843274"] });
    assert.equal(result.isError, undefined);
    const [retracted, other] = result.structuredContent.articles as Record<string, unknown>[];
    assert.deepEqual(retracted.retractedIn, [{
      refSource: "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4.",
      pmid: "20137807",
    }]);
    assert.equal(other.retractedIn, undefined);
    const text = result.content[0].text;
    assert.match(text, /PMID 9500320 RETRACTED: Ileal-lymphoid/);
    assert.match(text, /RETRACTED: notice PMID 20137807 \(Lancet\. 2010 Feb 6/);
    assert.doesNotMatch(text, /PMID 34843274 RETRACTED/);
  });
});

Deno.test("fetchArticleDetails citation_data keeps the retraction notice, from the CLI", async () => {
  await withTools({ env: ENV }, async (h) => {
    const { code, out } = await cliCall(h, "fetchArticleDetails", { pmids: ["9500320"], detailLevel: "citation_data" });
    assert.equal(code, EXIT_OK);
    assert.equal(JSON.parse(out).articles[0].retractedIn[0].pmid, "20137807");
  });
});
