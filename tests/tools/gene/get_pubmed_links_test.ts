import assert from "node:assert/strict";
import { callOnce, errorOf, geneHarness, paramsOf } from "./gene_mock.ts";

interface Page {
  items: string[];
  total_count: number;
  page_size: number;
  next_cursor?: string;
}

Deno.test("get_pubmed_links over MCP", async (t) => {
  const h = await geneHarness();
  try {
    let first: Page;
    await t.step("TP53 links: PMID CURIEs, the real total_count and a cursor", async () => {
      const result = await h.call("get_pubmed_links", { entrez_id: "NCBIGene:7157", limit: 20 });
      assert.equal(result.isError, undefined);
      first = result.structuredContent as unknown as Page;
      assert.equal(first.items.length, 20);
      assert.equal(first.items[0], "PMID:25842826");
      for (const item of first.items) assert.match(item, /^PMID:\d+$/);
      assert.equal(first.total_count, 6906);
      assert.equal(first.page_size, 20);
      assert.ok(first.next_cursor);
      const [elink] = paramsOf(h.requests, "/elink.fcgi");
      assert.deepEqual(
        [elink.get("dbfrom"), elink.get("db"), elink.get("linkname"), elink.get("id")],
        ["gene", "pubmed", "gene_pubmed", "7157"],
      );
    });

    await t.step("the next page continues the list and costs no request", async () => {
      const before = h.requests.length;
      const second = (await h.call("get_pubmed_links", {
        entrez_id: "NCBIGene:7157",
        limit: 20,
        cursor: first.next_cursor,
      })).structuredContent as unknown as Page;
      assert.equal(second.items.length, 20);
      assert.ok(second.items.every((p) => !first.items.includes(p)));
      assert.equal(h.requests.length, before, "ELink answered once, cached");
    });

    await t.step("the default limit is 100 and the last page has no cursor", async () => {
      const page = (await h.call("get_pubmed_links", { entrez_id: "NCBIGene:4747" }))
        .structuredContent as unknown as Page;
      assert.equal(page.page_size, 100);
      assert.equal(page.items.length, 98);
      assert.equal(page.total_count, 98);
      assert.equal("next_cursor" in page, false);
    });

    await t.step("a gene without links gives items []", async () => {
      const result = await h.call("get_pubmed_links", { entrez_id: "NCBIGene:105694156" });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { items: [], total_count: 0, page_size: 100 });
    });

    await t.step("a cursor from another gene is INVALID_INPUT", async () => {
      const error = errorOf(
        await h.call("get_pubmed_links", { entrez_id: "NCBIGene:4747", cursor: first.next_cursor }),
      );
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /different get_pubmed_links query/);
    });

    await t.step("a raw symbol is UNRESOLVED_ENTITY pointing at search_genes", async () => {
      const error = errorOf(await h.call("get_pubmed_links", { entrez_id: "TP53" }));
      assert.equal(error.code, "UNRESOLVED_ENTITY");
      assert.equal(error.recovery_hint, 'Call search_genes("TP53") to resolve it to an NCBIGene CURIE');
    });

    await t.step("limit outside 1–10000 is INVALID_INPUT", async () => {
      for (const limit of [0, 10_001, 2.5]) {
        assert.equal(
          errorOf(await h.call("get_pubmed_links", { entrez_id: "NCBIGene:7157", limit })).code,
          "INVALID_INPUT",
        );
      }
    });

    await t.step("the largest limit is clamped to a page that fits the output budget, and pages on", async () => {
      const result = await h.call("get_pubmed_links", { entrez_id: "NCBIGene:7157", limit: 10_000 });
      const max = result.structuredContent as unknown as Page & { next: { arguments: { cursor: string } } };
      assert.ok(result.content[0].text.length <= 24_000, `${result.content[0].text.length} characters`);
      assert.ok(max.items.length > 1000 && max.items.length < 6906, `${max.items.length} PMIDs`);
      assert.equal(max.page_size, max.items.length);
      assert.equal(max.next.arguments.cursor, max.next_cursor);
      assert.match(result.content[0].text, /next page: call again with cursor="[^"]+" — get_pubmed_links \{/);
    });
  } finally {
    await h.close();
  }
});

Deno.test("get_pubmed_links maps upstream faults to error envelopes", async (t) => {
  await t.step("HTTP 502 → UPSTREAM_ERROR", async () => {
    const badGateway = () => new Response("bad gateway", { status: 502 });
    const error = errorOf(await callOnce(badGateway, "get_pubmed_links", { entrez_id: "NCBIGene:7157" }));
    assert.equal(error.code, "UPSTREAM_ERROR");
  });
  await t.step("an ELink <ERROR> about the id → ENTITY_NOT_FOUND with a search_genes hint", async () => {
    const invalidUid = () => new Response("<eLinkResult><ERROR>Invalid uid 0 at position 0</ERROR></eLinkResult>");
    const error = errorOf(await callOnce(invalidUid, "get_pubmed_links", { entrez_id: "NCBIGene:0" }));
    assert.equal(error.code, "ENTITY_NOT_FOUND");
    assert.match(error.recovery_hint, /search_genes/);
  });
});
