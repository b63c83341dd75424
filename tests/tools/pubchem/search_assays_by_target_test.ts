import assert from "node:assert/strict";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("search_assays_by_target over MCP", async (t) => {
  const h = await pubchemHarness(
    reply("/pug/assay/target/genesymbol/CYP3A4/aids/JSON", "built__assay_target_genesymbol_CYP3A4_aids.json"),
    reply("/pug/assay/target/proteinname/aids/JSON", "built__assay_target_genesymbol_CYP3A4_aids.json"),
    reply("/pug/assay/target/genesymbol/NOPE1/aids/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply("/pug/assay/target/genesymbol/BUSY/aids/JSON", "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: a gene symbol gives AIDs and their total", async () => {
      const result = await h.call("search_assays_by_target", { targetType: "genesymbol", targetQuery: "CYP3A4" });
      assert.deepEqual(result.structuredContent, { aids: [884, 1851, 1911], totalFound: 3 });
    });
    await t.step("success: a protein name with spaces goes in a POST body; maxRecords cuts the list", async () => {
      const result = await h.call("search_assays_by_target", {
        targetType: "proteinname",
        targetQuery: "cytochrome P450 3A4",
        maxRecords: 2,
      });
      const page = result.structuredContent as { aids: number[]; totalFound: number; next_cursor: string };
      assert.deepEqual([page.aids, page.totalFound], [[884, 1851], 3]);
      const req = h.requests.at(-1)!;
      assert.equal(req.method, "POST");
      assert.equal(new URLSearchParams(req.body).get("proteinname"), "cytochrome P450 3A4");
    });
    await t.step("paging: next_cursor and next fetch the AIDs after the page", async () => {
      const first = await h.call("search_assays_by_target", {
        targetType: "proteinname",
        targetQuery: "cytochrome P450 3A4",
        maxRecords: 2,
      });
      const next = (first.structuredContent as { next: { tool: string; arguments: Record<string, unknown> } }).next;
      assert.match(first.content[0].text!, /\nnext page: call again with cursor="[\w-]+" — search_assays_by_target \{/);
      const second = await h.call(next.tool, next.arguments);
      assert.deepEqual(second.structuredContent, { aids: [1911], totalFound: 3 });
    });
    await t.step("not found: an unknown symbol is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(
        await h.call("search_assays_by_target", { targetType: "genesymbol", targetQuery: "NOPE1" }),
      );
      assert.equal(error.code, "ENTITY_NOT_FOUND");
    });
    await t.step("bad input: a 'genesymbol' with spaces names both fields; empty queries are refused", async () => {
      const error = errorOf(
        await h.call("search_assays_by_target", { targetType: "genesymbol", targetQuery: "epidermal growth factor" }),
      );
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /'targetQuery' with 'targetType'/);
      const empty = errorOf(await h.call("search_assays_by_target", { targetType: "proteinname", targetQuery: " " }));
      assert.equal(empty.code, "INVALID_INPUT");
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      const error = errorOf(await h.call("search_assays_by_target", { targetType: "genesymbol", targetQuery: "BUSY" }));
      assert.equal(error.code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});

Deno.test("search_assays_by_target returns every AID by default, paged within the text budget", async () => {
  const all = Array.from({ length: 6_000 }, (_, i) => 100_000 + i);
  const h = await pubchemHarness((req) =>
    req.url.pathname.endsWith("/assay/target/genesymbol/EGFR/aids/JSON")
      ? new Response(JSON.stringify({ IdentifierList: { AID: all } }), {
        headers: { "content-type": "application/json" },
      })
      : undefined
  );
  try {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await h.call("search_assays_by_target", {
        targetType: "genesymbol",
        targetQuery: "EGFR",
        ...(cursor ? { cursor } : {}),
      });
      const page = result.structuredContent as { aids: number[]; totalFound: number; next_cursor?: string };
      assert.equal(page.totalFound, 6_000);
      const text = (result.content as { type: string; text: string }[])[0].text;
      assert.ok(text.length <= 24_000, `page ${pages + 1}: ${text.length} characters`);
      if (page.next_cursor) assert.match(text, /next page: call again with cursor="/);
      seen.push(...page.aids);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.deepEqual(seen, all, "every AID, once, in order");
    assert.ok(pages >= 3, `${pages} pages`);
    const other = errorOf(
      await h.call("search_assays_by_target", {
        targetType: "genesymbol",
        targetQuery: "EGFR",
        maxRecords: 5,
        cursor: "x",
      }),
    );
    assert.equal(other.code, "INVALID_INPUT");
  } finally {
    await h.close();
  }
});
