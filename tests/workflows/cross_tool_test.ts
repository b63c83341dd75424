/**
 * Workflows that cross toolsets, over MCP against the real mock upstream serving recorded bodies:
 * - PubChem → PubMed: search_compound_by_identifier(aspirin) → fetch_compound_xrefs(PubMedID) → fetchArticleDetails.
 * - Fuzzy-to-Fact: search_genes → get_gene → get_pubmed_links → fetchArticleDetails (PMID CURIEs passed as is).
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { systemClock } from "../../src/core/clock.ts";
import { connectClient, testRuntime } from "../helpers/runtime.ts";

type Structured = Record<string, unknown>;

async function session(toolsets: string) {
  const mock = await startMockUpstream({ rates: false });
  const runtime = testRuntime({
    fetch: (r) => fetch(r),
    clock: systemClock,
    env: { ...mock.env, SCIENCE_MCP_TOOLSETS: toolsets },
  });
  const { client, close } = await connectClient(runtime);
  const call = async (name: string, args: Structured) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, data: result.structuredContent as Structured };
  };
  return { mock, call, close: async () => (await close(), await mock.close()) };
}

Deno.test("aspirin's PubMed cross-references resolve to full articles through fetchArticleDetails", async () => {
  const s = await session("pubchem,pubmed");
  try {
    const found = await s.call("search_compound_by_identifier", { identifierType: "name", identifier: "aspirin" });
    assert.equal(found.isError, false);
    const cid = (found.data.cids as number[])[0];
    assert.equal(cid, 2244);

    const xrefs = await s.call("fetch_compound_xrefs", { cid, xrefTypes: ["PubMedID"] });
    assert.equal(xrefs.isError, false);
    const pmids = (xrefs.data.xrefs as Record<string, (string | number)[]>).PubMedID.map(String);
    assert.ok(pmids.length >= 1);

    const details = await s.call("fetchArticleDetails", { pmids });
    assert.equal(details.isError, false, JSON.stringify(details.data));
    const articles = details.data.articles as { pmid: string; title: string }[];
    assert.deepEqual(articles.map((a) => a.pmid).sort(), [...pmids].sort());
    assert.ok(articles.every((a) => a.title.length > 0));
    assert.deepEqual(details.data.notFoundPmids, []);
  } finally {
    await s.close();
  }
});

Deno.test("Fuzzy-to-Fact: gene PMID CURIEs go straight into fetchArticleDetails", async () => {
  const s = await session("gene,pubmed");
  try {
    const search = await s.call("search_genes", { query: "TP53", organism: "human" });
    const id = (search.data.items as { id: string }[])[0].id;
    assert.equal(id, "NCBIGene:7157");
    const gene = await s.call("get_gene", { entrez_id: id });
    assert.equal(gene.data.symbol, "TP53");
    const links = await s.call("get_pubmed_links", { entrez_id: id, limit: 3 });
    const curies = links.data.items as string[];
    assert.equal(curies.length, 3);
    assert.ok(curies.every((c) => /^PMID:\d+$/.test(c)));

    const before = s.mock.requests.length;
    const details = await s.call("fetchArticleDetails", { pmids: curies });
    // The recorded corpus holds no article that NCBI links to TP53, so the mock's EFetch returns none of
    // them: the chain must say so precisely (never an empty success) after asking NCBI for exactly these ids.
    const efetch = s.mock.requests.slice(before).find((r) => r.path === "/efetch.fcgi");
    assert.ok(efetch, "fetchArticleDetails reached EFetch");
    assert.deepEqual(String(efetch.params.id).split(","), curies.map((c) => c.slice(5)));
    assert.equal(details.isError, true);
    assert.equal((details.data.error as { code: string }).code, "ENTITY_NOT_FOUND");
  } finally {
    await s.close();
  }
});
