import assert from "node:assert/strict";
import { errorOf, pubchemHarness, reply } from "./helpers.ts";

Deno.test("fetch_compound_xrefs over MCP", async (t) => {
  const h = await pubchemHarness(
    reply(/^\/pug\/compound\/cid\/2244\/xrefs\//, "built__xrefs_cid_2244.json"),
    reply(/^\/pug\/compound\/cid\/135398570\/xrefs\/RN\//, "pubchemcrawler__xrefs_RN_cid135398570.json"),
    reply(/^\/pug\/compound\/cid\/1\/xrefs\//, "metmashr__fault_name_no_hit_cids.json", 404),
    reply(/^\/pug\/compound\/cid\/7\/xrefs\//, "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: PubMed ids as numbers, every requested type present", async () => {
      const result = await h.call("fetch_compound_xrefs", { cid: 2244, xrefTypes: ["PubMedID", "TaxonomyID"] });
      assert.deepEqual(result.structuredContent, {
        cid: 2244,
        xrefs: { PubMedID: [9997, 11748933, 12091962, 27797938], TaxonomyID: [] },
        totalCounts: { PubMedID: 4, TaxonomyID: 0 },
      });
      assert.equal(h.requests.at(-1)!.url.pathname, "/rest/pug/compound/cid/2244/xrefs/PubMedID,TaxonomyID/JSON");
    });
    await t.step(
      "success: maxPerType cuts long lists and totalCounts keeps the full count (real RN recording)",
      async () => {
        const result = await h.call("fetch_compound_xrefs", { cid: 135398570, xrefTypes: ["RN", "RN"], maxPerType: 2 });
        assert.deepEqual(result.structuredContent, {
          cid: 135398570,
          xrefs: { RN: ["231-641-6", "40732-48-7"] },
          totalCounts: { RN: 3 },
        });
      },
    );
    await t.step("not found: ENTITY_NOT_FOUND with a hint to check the CID or the types", async () => {
      const error = errorOf(await h.call("fetch_compound_xrefs", { cid: 1, xrefTypes: ["PatentID"] }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.recovery_hint, /xrefTypes/);
    });
    await t.step("bad input: no types, unknown types and bad CIDs are refused", async () => {
      for (
        const args of [
          { cid: 2244, xrefTypes: [] },
          { cid: 2244, xrefTypes: ["DOI"] },
          { cid: 0, xrefTypes: ["RN"] },
          { cid: 2244, xrefTypes: ["RN"], maxPerType: 0 },
        ]
      ) {
        assert.equal(errorOf(await h.call("fetch_compound_xrefs", args)).code, "INVALID_INPUT");
      }
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      assert.equal(errorOf(await h.call("fetch_compound_xrefs", { cid: 7, xrefTypes: ["RN"] })).code, "RATE_LIMITED");
    });
  } finally {
    await h.close();
  }
});

Deno.test("fetch_compound_xrefs returns every id of every type by default, paged within the text budget", async () => {
  const pmids = Array.from({ length: 5_000 }, (_, i) => 30_000_000 + i);
  const rns = ["50-78-2", "200-064-1"];
  const h = await pubchemHarness((req) =>
    req.url.pathname.includes("/compound/cid/2244/xrefs/")
      ? new Response(
        JSON.stringify({ InformationList: { Information: [{ CID: 2244, PubMedID: pmids, RN: rns }] } }),
        { headers: { "content-type": "application/json" } },
      )
      : undefined
  );
  try {
    const got: Record<string, (string | number)[]> = { PubMedID: [], RN: [] };
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await h.call("fetch_compound_xrefs", {
        cid: 2244,
        xrefTypes: ["PubMedID", "RN"],
        ...(cursor ? { cursor } : {}),
      });
      const page = result.structuredContent as {
        xrefs: Record<string, (string | number)[]>;
        totalCounts: Record<string, number>;
        next_cursor?: string;
      };
      assert.deepEqual(page.totalCounts, { PubMedID: 5_000, RN: 2 });
      const text = (result.content as { text: string }[])[0].text;
      assert.ok(text.length <= 24_000);
      if (pages === 0) assert.match(text, /RN \(0 of 2\): on another page/, "not 'none' while the RNs wait");
      for (const [type, ids] of Object.entries(page.xrefs)) got[type].push(...ids);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.deepEqual(got, { PubMedID: pmids, RN: rns });
    assert.ok(pages >= 2);
  } finally {
    await h.close();
  }
});
