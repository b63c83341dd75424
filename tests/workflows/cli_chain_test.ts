/**
 * The cross-toolset chains from the CLI, as a user types them (`deno run -P=cli main.ts call …`), each call
 * a separate process against the mock upstream: every step's JSON output feeds the next step's flags.
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { runDeno } from "../e2e/helpers.ts";

type Json = Record<string, unknown>;

Deno.test("CLI chains: Fuzzy-to-Fact and aspirin → PubMed, one process per step", async (t) => {
  const mock = await startMockUpstream({ rates: false });
  const call = async (tool: string, ...args: string[]) => {
    const { code, stdout, stderr } = await runDeno(["run", "-P=cli", "main.ts", "call", tool, ...args], mock.env);
    return { code, stderr, out: JSON.parse(stdout) as Json };
  };
  try {
    await t.step("search_genes → get_gene → get_pubmed_links → fetchArticleDetails", async () => {
      const search = await call("search_genes", "--query", "TP53", "--organism", "human");
      assert.equal(search.code, 0, search.stderr);
      const id = (search.out.items as { id: string }[])[0].id;
      const gene = await call("get_gene", "--entrez_id", id);
      assert.equal(gene.code, 0, gene.stderr);
      assert.equal(gene.out.symbol, "TP53");
      const links = await call("get_pubmed_links", "--entrez_id", id, "--limit", "2");
      assert.equal(links.code, 0, links.stderr);
      const pmids = links.out.items as string[];
      const details = await call("fetchArticleDetails", ...pmids.flatMap((p) => ["--pmids", p]));
      // No recorded article is linked to TP53: a tool error (exit 2) with its envelope, never an empty success.
      assert.equal(details.code, 2);
      assert.equal((details.out.error as { code: string }).code, "ENTITY_NOT_FOUND");
    });
    await t.step("search_compound_by_identifier → fetch_compound_xrefs → fetchArticleDetails", async () => {
      const found = await call("search_compound_by_identifier", "--identifierType", "name", "--identifier", "aspirin");
      assert.equal(found.code, 0, found.stderr);
      const cid = String((found.out.cids as number[])[0]);
      const xrefs = await call("fetch_compound_xrefs", "--cid", cid, "--xrefTypes", "PubMedID");
      assert.equal(xrefs.code, 0, xrefs.stderr);
      const pmids = (xrefs.out.xrefs as Record<string, unknown[]>).PubMedID.map(String);
      const details = await call("fetchArticleDetails", JSON.stringify({ pmids, detailLevel: "citation_data" }));
      assert.equal(details.code, 0, details.stderr);
      assert.equal((details.out.articles as unknown[]).length, pmids.length);
    });
  } finally {
    await mock.close();
  }
});
