import assert from "node:assert/strict";
import { startOf } from "../../../src/tools/papers/search_cursor.ts";
import { europePmcQuery } from "../../../src/tools/papers/search_europepmc.ts";
import { errorOf, papersClient, structured } from "./mock.ts";

interface Hit {
  id: string;
  title: string | null;
  venue?: string;
  doi?: string;
  abstract?: string;
  preprint?: boolean;
  retracted?: boolean;
  retraction_notice?: string;
  ids?: { pmid?: string; pmcid?: string; doi?: string };
}
interface Search {
  source: string;
  query_sent: string;
  papers: Hit[];
  total_count: number;
  next_cursor?: string;
}

Deno.test("Europe PMC query: the date range becomes a FIRST_PDATE clause", () => {
  assert.equal(europePmcQuery("malaria", {}), "malaria");
  assert.equal(
    europePmcQuery("SRC:PPR AND malaria", { from: "2020-01-01" }),
    "(SRC:PPR AND malaria) AND FIRST_PDATE:[2020-01-01 TO 3000-12-31]",
  );
});

Deno.test("search_papers source=europepmc over MCP", async (t) => {
  const { call, close, fetch } = await papersClient();
  try {
    await t.step("hits carry PMID/DOI ids, venue and a cut abstract; the cursor pages on", async () => {
      const first = structured<Search>(
        await call("search_papers", { source: "europepmc", query: "cancer", count: 5, sort: "citations" }),
      );
      assert.equal(first.total_count, 5059039);
      assert.equal(first.papers.length, 5);
      assert.equal(first.papers[0].id, "MED:39709209");
      assert.deepEqual(first.papers[0].ids, { pmid: "39709209", doi: "10.1016/s0140-6736(24)02600-x" });
      assert.equal(first.papers[0].venue, "Lancet (London, England)");
      assert.match(first.query_sent, /^query=cancer&sort=CITED desc$/);
      const sent = fetch.requests.findLast((r) => r.url.pathname === "/europepmc/search")!;
      assert.deepEqual(
        ["resultType", "format", "pageSize", "cursorMark", "sort"].map((k) => sent.url.searchParams.get(k)),
        ["core", "json", "5", "*", "CITED desc"],
      );
      assert.ok(first.next_cursor);
      const second = structured<Search>(
        await call("search_papers", {
          source: "europepmc",
          query: "cancer",
          count: 5,
          sort: "citations",
          cursor: first.next_cursor,
        }),
      );
      assert.equal(
        startOf({ source: "europepmc", query: "cancer", sort: "citations", cursor: first.next_cursor }).o,
        5,
      );
      assert.equal(
        fetch.requests.findLast((r) => r.url.pathname === "/europepmc/search")!.url.searchParams
          .get("cursorMark"),
        "mock-5",
      );
      assert.notDeepEqual(second.papers.map((p) => p.id), first.papers.map((p) => p.id));
    });
    await t.step("preprints are marked as such, with their server as venue", async () => {
      const out = await call("search_papers", { source: "europepmc", query: "SRC:PPR AND cancer", count: 3 });
      const found = structured<Search>(out);
      assert.ok(found.papers.every((p) => p.preprint === true && p.id.startsWith("PPR:")));
      assert.equal(found.papers[0].venue, "medRxiv");
      const text = out.content?.[0]?.text ?? "";
      assert.match(text, /preprint: true \(not peer-reviewed\)/);
      assert.match(text, /next page: call again with cursor=/);
    });
    await t.step("a retracted record says so, with its notice", async () => {
      const out = await call("search_papers", { source: "europepmc", query: "EXT_ID:39466770 AND SRC:MED", count: 1 });
      const [hit] = structured<Search>(out).papers;
      assert.equal(hit.retracted, true);
      assert.match(hit.retraction_notice ?? "", /^MED:41926417/);
      assert.match(
        out.content?.[0]?.text ?? "",
        /## MED:39466770: RETRACTED: An inherently[^\n]*\n[\s\S]*retracted: true \(notice MED:41926417/,
      );
    });
    await t.step("a cursor from another query and an offset are refused", async () => {
      const first = structured<Search>(await call("search_papers", { source: "europepmc", query: "cancer", count: 2 }));
      const error = errorOf(
        await call("search_papers", { source: "europepmc", query: "malaria", count: 2, cursor: first.next_cursor }),
      );
      assert.equal(error.code, "INVALID_INPUT");
      assert.equal(
        errorOf(await call("search_papers", { source: "europepmc", query: "cancer", offset: 20 })).code,
        "INVALID_INPUT",
      );
    });
  } finally {
    await close();
  }
});

Deno.test("Europe PMC is paced at 5 requests/s at most (seed 004): 12 concurrent searches never put 6 in one second", async () => {
  const { call, close, times } = await papersClient();
  try {
    const queries = Array.from({ length: 12 }, (_, i) => `cancer ${i}`);
    const results = await Promise.all(queries.map((query) => call("search_papers", { source: "europepmc", query })));
    for (const result of results) structured(result);
    const starts = times.filter((r) => r.url.pathname.startsWith("/europepmc/")).map((r) => r.at).sort((a, b) => a - b);
    assert.equal(starts.length, 12, "one request per search");
    for (let i = 5; i < starts.length; i++) {
      assert.ok(starts[i] - starts[i - 5] >= 1000, `6 requests within ${starts[i] - starts[i - 5]} ms`);
    }
  } finally {
    await close();
  }
});
