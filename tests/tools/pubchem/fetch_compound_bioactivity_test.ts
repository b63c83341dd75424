import assert from "node:assert/strict";
import { busy, errorOf, mockRoutesHarness, pubchemHarness } from "./helpers.ts";
import { pubchemFixture } from "../../sources/pubchem/fakes.ts";

interface Bioactivity {
  cid: number;
  counts: Record<string, number>;
  topTargets: { geneId?: number; symbol?: string; name?: string; activeAssays: number; testedAssays: number }[];
  total: number;
  offset: number;
  nextOffset?: number;
  assays: { aid: number; outcome: string; name?: string }[];
}

Deno.test("fetch_compound_bioactivity over MCP", async (t) => {
  const h = await mockRoutesHarness();
  try {
    await t.step("asks assaysummary for the CID, then one gene summary for the top targets", async () => {
      await h.call("fetch_compound_bioactivity", { cid: 2244 });
      assert.deepEqual(h.requests.map((r) => [r.method, r.url.pathname, r.url.search]), [
        ["GET", "/pubchem/pug/compound/cid/2244/assaysummary/JSON", ""],
        ["GET", "/pubchem/pug/gene/geneid/5742,5743,3551,1544,1557,1559,1565,1576,7157/summary/JSON", ""],
      ]);
    });
    await t.step("success: counts, named top targets and the first page, active first", async () => {
      const before = h.requests.length;
      const result = await h.call("fetch_compound_bioactivity", { cid: 2244, count: 5 });
      assert.equal(h.requests.length, before, "paging re-reads the cached answer");
      const s = result.structuredContent as unknown as Bioactivity;
      assert.deepEqual(s.counts, { active: 6, inactive: 7, inconclusive: 2, unspecified: 1 });
      assert.equal(s.total, 16);
      assert.deepEqual(s.topTargets[0], {
        geneId: 5742,
        accession: "P23219",
        symbol: "PTGS1",
        name: "prostaglandin-endoperoxide synthase 1",
        activeAssays: 3,
        testedAssays: 4,
      });
      assert.deepEqual(s.assays.map((a) => [a.aid, a.outcome]), [
        [1000, "active"],
        [1001, "active"],
        [1003, "active"],
        [1010, "active"],
        [1020, "active"],
      ]);
      assert.equal(s.offset, 0);
      assert.equal(s.nextOffset, 5);
    });
    await t.step("paging: offset and count select the page; the last page has no nextOffset", async () => {
      const page = (await h.call("fetch_compound_bioactivity", { cid: 2244, offset: 15, count: 5 }))
        .structuredContent as unknown as Bioactivity;
      assert.deepEqual(page.assays.map((a) => [a.aid, a.outcome]), [[1032, "unspecified"]]);
      assert.equal(page.nextOffset, undefined);
      const beyond = (await h.call("fetch_compound_bioactivity", { cid: 2244, offset: 40 }))
        .structuredContent as unknown as Bioactivity;
      assert.deepEqual(beyond.assays, []);
      assert.equal(beyond.total, 16);
    });
    await t.step("paging: the next call is carried as data, and its cursor continues where offset would", async () => {
      const first = (await h.call("fetch_compound_bioactivity", { cid: 2244, count: 5 }))
        .structuredContent as unknown as Bioactivity & { next: { tool: string; arguments: Record<string, unknown> } };
      assert.equal(first.next.tool, "fetch_compound_bioactivity");
      const second = (await h.call(first.next.tool, first.next.arguments)).structuredContent as unknown as Bioactivity;
      const byOffset = (await h.call("fetch_compound_bioactivity", { cid: 2244, count: 5, offset: 5 }))
        .structuredContent as unknown as Bioactivity;
      assert.deepEqual(second.assays, byOffset.assays);
      assert.equal(second.offset, 5);
    });
    await t.step("the text block carries counts, targets and the page as Markdown", async () => {
      const text = (await h.call("fetch_compound_bioactivity", { cid: 2244, count: 2 })).content[0].text!;
      assert.match(
        text,
        /^# Bioactivity of CID 2244\n⟦\nassays tested: 16 \(active 6, inactive 7, inconclusive 2, unspecified 1\)/,
      );
      assert.match(text, /- PTGS1 \(NCBIGene:5742, P23219\) prostaglandin-endoperoxide synthase 1: 3\/4/);
      assert.match(text, /## Assays 1–2 of 16\n- AID 1000 active: Inhibition of human COX-1 \(PTGS1\) enzyme activity/);
      assert.match(text, /IC50 1\.7 µM; PMID 9997/);
      assert.match(
        text,
        /\nnext page: call again with cursor="[\w-]+" — fetch_compound_bioactivity \{"cid":2244,"count":2,"cursor":"[\w-]+"\} \(or offset=2\)$/,
      );
    });
    await t.step("not found: a compound without assay data is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(await h.call("fetch_compound_bioactivity", { cid: 3672 }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.recovery_hint, /search_assays_by_target/);
    });
    await t.step("bad input: CID, offset and count out of range", async () => {
      const before = h.requests.length;
      for (
        const args of [{ cid: 0 }, { cid: 2244, offset: -1 }, { cid: 2244, count: 0 }, { cid: 2244, count: 101 }, {
          cid: 2244,
          count: 2.5,
        }]
      ) {
        assert.equal(errorOf(await h.call("fetch_compound_bioactivity", args)).code, "INVALID_INPUT");
      }
      assert.equal(h.requests.length, before);
    });
  } finally {
    await h.close();
  }
});

Deno.test("fetch_compound_bioactivity: ServerBusy is RATE_LIMITED", async () => {
  const h = await pubchemHarness(busy);
  try {
    assert.equal(errorOf(await h.call("fetch_compound_bioactivity", { cid: 2244 })).code, "RATE_LIMITED");
  } finally {
    await h.close();
  }
});

Deno.test("fetch_compound_bioactivity counts an assay row in another shape and names it in warnings", async () => {
  // built__assaysummary_cid_2244.json with the activity value of its first row sent as an object (BUILT variant).
  const doc = JSON.parse(pubchemFixture("built__assaysummary_cid_2244.json"));
  doc.Table.Row[0].Cell[7] = { value: 1.7 };
  const h = await pubchemHarness((req) => {
    const path = req.url.pathname;
    if (path.endsWith("/assaysummary/JSON")) return new Response(JSON.stringify(doc));
    if (path.includes("/gene/geneid/")) return new Response(pubchemFixture("built__gene_summary_aspirin_targets.json"));
    return undefined;
  });
  try {
    const r = await h.call("fetch_compound_bioactivity", { cid: 2244, count: 50 });
    assert.equal(r.isError, undefined, r.content[0].text);
    const out = r.structuredContent as unknown as Bioactivity & { warnings?: string[] };
    assert.ok(out.assays.some((a) => a.aid === 1000), "the row's assay is still counted");
    assert.equal(out.warnings?.length, 1);
    assert.match(out.warnings![0], /^PubChem assay-summary row 1 does not match the expected shape \(Cell\.7/);
    assert.match(r.content[0].text!, /^warning: PubChem assay-summary row 1 /m);
  } finally {
    await h.close();
  }
});
