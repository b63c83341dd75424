import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { closestArgument } from "../../src/core/argument_hints.ts";
import { ToolError } from "../../src/core/errors.ts";
import { parseArguments } from "../../src/core/invoke.ts";
import { withTools } from "../helpers/tool_harness.ts";

const tool = (name: string) => ALL_TOOLS.find((t) => t.name === name)!;

function rejection(name: string, args: unknown): ToolError {
  try {
    parseArguments(tool(name), args);
  } catch (error) {
    assert.ok(error instanceof ToolError && error.code === "INVALID_INPUT", String(error));
    return error;
  }
  throw new Error(`${name} accepted ${JSON.stringify(args)}`);
}

Deno.test("an integer id sent as a numeric string is taken as the number, in any tool", () => {
  assert.deepEqual(parseArguments(tool("fetch_compound_safety"), { cid: "2244" }), { cid: 2244 });
  const properties = parseArguments(tool("fetch_compound_properties"), { cids: ["2244", 3672], properties: ["XLogP"] });
  assert.deepEqual(properties.cids, [2244, 3672]);
  assert.equal(parseArguments(tool("get_pubmed_links"), { entrez_id: "NCBIGene:7157", limit: "20" }).limit, 20);
  // A string where the schema takes a string stays a string; a non-numeric string is still refused.
  assert.equal(parseArguments(tool("search_genes"), { query: "7157" }).query, "7157");
  assert.match(rejection("fetch_compound_safety", { cid: "aspirin" }).message, /'cid'/);
});

Deno.test("a PMCID or DOI where a PMID belongs points to convert_article_ids and fetch_content", () => {
  for (
    const [name, args] of [
      ["fetchArticleDetails", { pmids: ["PMC3299399"] }],
      ["fetchArticleDetails", { pmids: ["10.3389/fpsyt.2012.00018"] }],
      ["getArticleRelationships", { sourcePmid: "PMC3299399" }],
    ] as const
  ) {
    const hint = rejection(name, args).recoveryHint;
    assert.match(hint, /is a (PMCID|DOI), not a PMID: get its PMID with convert_article_ids \{"ids":\[/, name);
    assert.match(hint, /fetch_content \{"source":"pubmed","id":/, name);
  }
});

Deno.test("an unknown argument name is answered with the closest real one", () => {
  const hint = rejection("searchPubMedArticles", { queryTerm: "cancer", limit: 5 }).recoveryHint;
  assert.match(hint, /^Did you mean 'maxResults'\? searchPubMedArticles takes queryTerm, maxResults, /);
  assert.equal(closestArgument("max_results", ["queryTerm", "maxResults"]), "maxResults");
  assert.equal(closestArgument("pmid", ["pmids", "detailLevel"]), "pmids");
  assert.equal(closestArgument("limit", ["entrez_id", "limit", "cursor"]), "limit");
  assert.equal(closestArgument("colour", ["query", "organism"]), undefined);
});

Deno.test("over MCP too, a numeric-string CID reaches the tool as a number", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "pubchem" } }, async (h) => {
    const result = await h.call("fetch_compound_safety", { cid: "176" });
    assert.notEqual(result.isError, true, result.content[0].text);
    assert.equal(result.structuredContent.cid, 176);
  });
});
