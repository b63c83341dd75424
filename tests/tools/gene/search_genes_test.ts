import assert from "node:assert/strict";
import type { RecordedRequest } from "../../helpers/runtime.ts";
import { callOnce, errorOf, geneHarness, paramsOf } from "./gene_mock.ts";

interface Candidate {
  id: string;
  symbol: string;
  name: string;
  description: string;
  organism: string;
  score: number;
}
interface Page {
  items: Candidate[];
  total_count: number;
  page_size: number;
  next_cursor?: string;
}

Deno.test("search_genes over MCP", async (t) => {
  const h = await geneHarness();
  try {
    await t.step("BRCA1 in human: human BRCA1 first with score 1, ranked candidates, canonical envelope", async () => {
      const result = await h.call("search_genes", { query: "BRCA1", organism: "human" });
      assert.equal(result.isError, undefined);
      const page = result.structuredContent as unknown as Page;
      assert.deepEqual(page.items[0], {
        id: "NCBIGene:672",
        symbol: "BRCA1",
        name: "BRCA1, DNA repair associated",
        description: "breast cancer type 1 susceptibility protein",
        organism: "Homo sapiens",
        score: 1,
      });
      assert.equal(page.items[1].symbol, "BRCA1P1", "symbol prefix next");
      assert.equal(page.total_count, 10);
      assert.equal(page.page_size, 50);
      assert.equal(page.items.length, 10);
      assert.equal("next_cursor" in page, false, "last page has no cursor");
      for (const item of page.items) assert.match(item.id, /^NCBIGene:\d+$/);
      const [esearch] = paramsOf(h.requests, "/esearch.fcgi");
      assert.equal(esearch.get("term"), "(BRCA1) AND txid9606[Organism:exp] AND alive[prop]");
      assert.equal(esearch.get("retmax"), "50");
      assert.match(result.content[0].text, /^10 of 10 genes .*\n\n⟦\n## NCBIGene:672 BRCA1: /);
    });

    await t.step("BRCA1 in all organisms: the human gene outranks the mouse and rat orthologs", async () => {
      const page = (await h.call("search_genes", { query: "BRCA1" })).structuredContent as unknown as Page;
      assert.deepEqual(page.items.slice(0, 3).map((i) => [i.id, i.organism, i.score]), [
        ["NCBIGene:672", "Homo sapiens", 1],
        ["NCBIGene:12189", "Mus musculus", 0.95],
        ["NCBIGene:497672", "Rattus norvegicus", 0.95],
      ]);
      assert.equal(paramsOf(h.requests, "/esearch.fcgi").at(-1)!.get("term"), "(BRCA1) AND alive[prop]");
    });

    await t.step("tumor suppressor returns many candidates ranked by score", async () => {
      const page = (await h.call("search_genes", { query: "tumor suppressor", organism: "human" }))
        .structuredContent as unknown as Page;
      assert.equal(page.items.length, 23);
      assert.equal(page.total_count, 23);
      for (let i = 1; i < page.items.length; i++) assert.ok(page.items[i - 1].score >= page.items[i].score);
      assert.ok(page.items.filter((i) => i.score > 0.5).length >= 5);
      assert.ok(page.items.every((i) => i.score >= 0 && i.score <= 1));
    });

    await t.step("page_size and next_cursor page through the list; the cursor is bound to the query", async () => {
      const first = (await h.call("search_genes", { query: "tumor suppressor", organism: "human", page_size: 10 }))
        .structuredContent as unknown as Page;
      assert.equal(first.items.length, 10);
      assert.equal(first.total_count, 23);
      assert.equal(first.page_size, 10);
      assert.ok(first.next_cursor);
      const second = (await h.call("search_genes", {
        query: "tumor suppressor",
        organism: "human",
        page_size: 10,
        cursor: first.next_cursor,
      })).structuredContent as unknown as Page;
      assert.equal(paramsOf(h.requests, "/esearch.fcgi").at(-1)!.get("retstart"), "10");
      assert.equal(second.items.length, 10);
      const seen = new Set(first.items.map((i) => i.id));
      assert.ok(second.items.every((i) => !seen.has(i.id)), "page 2 does not repeat page 1");
      const third = (await h.call("search_genes", {
        query: "tumor suppressor",
        organism: "human",
        page_size: 10,
        cursor: second.next_cursor,
      })).structuredContent as unknown as Page;
      assert.equal(third.items.length, 3);
      assert.equal("next_cursor" in third, false);

      const replay = await h.call("search_genes", { query: "BRCA1", organism: "human", cursor: first.next_cursor });
      assert.equal(replay.isError, true);
      assert.equal(errorOf(replay).code, "INVALID_INPUT");
      assert.match(errorOf(replay).message, /different search_genes query/);
      const otherOrganism = await h.call("search_genes", { query: "tumor suppressor", cursor: first.next_cursor });
      assert.equal(errorOf(otherOrganism).code, "INVALID_INPUT");
      const garbage = await h.call("search_genes", { query: "tumor suppressor", cursor: "bm90IGEgY3Vyc29y" });
      assert.equal(errorOf(garbage).code, "INVALID_INPUT");
      assert.match(errorOf(garbage).recovery_hint, /omit cursor/);
    });

    await t.step("no match: items [] and total_count 0, not an error", async () => {
      const result = await h.call("search_genes", { query: "zzxqgene" });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { items: [], total_count: 0, page_size: 50 });
    });

    await t.step("taxon ids, CURIEs and other scientific names are accepted as organism", async () => {
      for (const organism of ["9606", "NCBITaxon:9606", "Homo sapiens"]) {
        const page = (await h.call("search_genes", { query: "TP53", organism })).structuredContent as unknown as Page;
        assert.equal(page.items[0].id, "NCBIGene:7157", organism);
      }
      const platypus = await h.call("search_genes", { query: "TP53", organism: "Ornithorhynchus anatinus" });
      assert.equal(platypus.isError, undefined);
      assert.equal(
        paramsOf(h.requests, "/esearch.fcgi").at(-1)!.get("term"),
        "(TP53) AND txid9258[Organism:exp] AND alive[prop]",
      );
    });

    await t.step("an organism NCBI does not know is INVALID_INPUT naming the accepted forms", async () => {
      const before = paramsOf(h.requests, "/esearch.fcgi").filter((p) => p.get("db") === "gene").length;
      const result = await h.call("search_genes", { query: "TP53", organism: "Martian dragon" });
      assert.equal(result.isError, true);
      const error = errorOf(result);
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.recovery_hint, /human, mouse, rat.*Homo sapiens.*9606.*NCBITaxon:9606/);
      assert.deepEqual(error.invalid_input, { field: "organism", value: "Martian dragon" });
      const after = paramsOf(h.requests, "/esearch.fcgi").filter((p) => p.get("db") === "gene").length;
      assert.equal(after, before, "no gene search runs with an unknown organism");
    });

    await t.step(
      "unbalanced parentheses or quotes are refused before they can swallow the organism filter",
      async () => {
        const before = h.requests.length;
        for (const query of ["((BRCA1", "BRCA1) OR (x", '"tumor suppressor']) {
          const error = errorOf(await h.call("search_genes", { query, organism: "human" }));
          assert.equal(error.code, "INVALID_INPUT", query);
          assert.deepEqual(error.invalid_input, { field: "query", value: query });
        }
        assert.equal(h.requests.length, before);
        const ok = await h.call("search_genes", { query: '"tumor suppressor" AND (human OR mouse)' });
        assert.equal(ok.isError, undefined);
      },
    );

    await t.step("bad arguments are INVALID_INPUT naming the field", async () => {
      for (
        const args of [{ query: "" }, { query: "TP53", page_size: 0 }, { query: "TP53", page_size: 501 }, {
          query: "TP53",
          organsim: "human",
        }]
      ) {
        const result = await h.call("search_genes", args);
        assert.equal(errorOf(result).code, "INVALID_INPUT", JSON.stringify(args));
      }
    });
  } finally {
    await h.close();
  }
});

Deno.test("search_genes maps upstream faults to error envelopes", async (t) => {
  await t.step("HTTP 503 → UPSTREAM_ERROR", async () => {
    const result = await callOnce(() => new Response("Service Unavailable", { status: 503 }), "search_genes", {
      query: "TP53",
    });
    assert.equal(result.isError, true);
    assert.equal(errorOf(result).code, "UPSTREAM_ERROR");
    assert.match(errorOf(result).recovery_hint, /NCBI_API_KEY|Retry/);
  });
  await t.step("HTTP 429 → RATE_LIMITED mentioning NCBI_API_KEY and the delay", async () => {
    const limited = () =>
      Response.json({ error: "API rate limit exceeded" }, { status: 429, headers: { "retry-after": "2" } });
    const error = errorOf(await callOnce(limited, "search_genes", { query: "TP53" }));
    assert.equal(error.code, "RATE_LIMITED");
    assert.match(error.recovery_hint, /NCBI_API_KEY/);
    assert.match(error.recovery_hint, /2 s/);
  });
  await t.step("malformed or truncated XML → UPSTREAM_ERROR, never a short success", async () => {
    for (const body of ["Rate exceeded.", "<eSearchResult><Count>12</Count><IdList><Id>672</Id>"]) {
      const esearch = (r: RecordedRequest) => r.url.pathname.endsWith("/esearch.fcgi") ? new Response(body) : undefined;
      const error = errorOf(await callOnce(esearch, "search_genes", { query: "BRCA1" }));
      assert.equal(error.code, "UPSTREAM_ERROR", body);
    }
  });
  await t.step("a query NCBI rejects (fatal <ERROR>) → INVALID_INPUT with a search_genes hint", async () => {
    const rejected = (r: RecordedRequest) =>
      r.url.pathname.endsWith("/esearch.fcgi")
        ? new Response("<eSearchResult><ERROR>Invalid query syntax</ERROR></eSearchResult>")
        : undefined;
    const error = errorOf(await callOnce(rejected, "search_genes", { query: "BRCA1[nosuchfield" }));
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.recovery_hint, /search_genes/);
    assert.deepEqual(error.invalid_input, { field: "query", value: "BRCA1[nosuchfield" });
  });
});
