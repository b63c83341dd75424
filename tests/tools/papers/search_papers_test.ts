import assert from "node:assert/strict";
import { arxivSearchQuery } from "../../../src/sources/arxiv/search_query.ts";
import { worksSearchParams } from "../../../src/sources/openalex/search_query.ts";
import { dayRange } from "../../../src/tools/papers/date_range.ts";
import { openalexPages } from "../../../src/tools/papers/search_pages.ts";
import { cursorAt, startOf } from "../../../src/tools/papers/search_cursor.ts";
import { fixture, type Route } from "../../helpers/runtime.ts";
import { errorOf, papersClient, structured } from "./mock.ts";

interface Search {
  source: string;
  query_sent: string;
  papers: { id: string; title: string | null; authors: string[]; date: string | null; cited_by_count?: number }[];
  total_count: number;
  next_cursor?: string;
  warnings?: { code: string; message: string }[];
  next?: { tool: string; arguments: Record<string, unknown> };
}

Deno.test("arXiv search_query: plain words get the field each, arXiv syntax passes through, dates become minutes", () => {
  assert.equal(arxivSearchQuery("graph neural", "ti", {}, "2026-03-01"), "ti:graph AND ti:neural");
  // Lowercase "and"/"or" are connectives of natural language, not required words; AND/OR stay operators.
  assert.equal(
    arxivSearchQuery("proteins and ligands or drugs", "all", {}, "2026-03-01"),
    "all:proteins AND all:ligands AND all:drugs",
  );
  assert.equal(arxivSearchQuery("ti:proteins OR ti:ligands", "all", {}, "2026-03-01"), "ti:proteins OR ti:ligands");
  assert.equal(
    arxivSearchQuery('"dark matter" halo', "abs", { from: "2020-01-01", to: "2021-12-31" }, "2026-03-01"),
    'abs:"dark matter" AND abs:halo AND submittedDate:[202001010000 TO 202112312359]',
  );
  assert.equal(
    arxivSearchQuery("au:del_maestro ANDNOT ti:checkerboard", "all", { from: "2015-06-01" }, "2026-03-01"),
    "(au:del_maestro ANDNOT ti:checkerboard) AND submittedDate:[201506010000 TO 202603012359]",
  );
  assert.equal(arxivSearchQuery("\u0007 \n", "all", {}, "2026-03-01"), "");
});

Deno.test("OpenAlex search parameters: search=, date and caller filters, sort keys", () => {
  assert.deepEqual(
    worksSearchParams({ query: "malaria\u0007", from: "2020-01-01", sort: "citations" }),
    { search: "malaria", filter: "from_publication_date:2020-01-01", sort: "cited_by_count:desc" },
  );
  assert.deepEqual(
    worksSearchParams({ query: "crispr", to: "2021-12-31", extraFilter: "is_oa:true,type:review", sort: "relevance" }),
    { search: "crispr", filter: "to_publication_date:2021-12-31,is_oa:true,type:review", sort: "relevance_score:desc" },
  );
  assert.equal(worksSearchParams({ query: "x y", sort: "date" }).sort, "publication_date:desc");
});

Deno.test("date ranges expand to whole days and refuse impossible or reversed dates", () => {
  assert.deepEqual(dayRange("2020", "2021-02"), { from: "2020-01-01", to: "2021-02-28" });
  assert.deepEqual(dayRange(undefined, "2024-02"), { to: "2024-02-29" });
  assert.throws(() => dayRange("2021-02-30", undefined), /from_date.*not a calendar date/);
  assert.throws(() => dayRange("2022", "2021"), /from_date.*after to_date/);
});

Deno.test("OpenAlex offsets map to one page that holds the window, or two consecutive pages", () => {
  assert.deepEqual(openalexPages(0, 20), [{ page: 1, perPage: 20, skip: 0, take: 20 }]);
  assert.deepEqual(openalexPages(40, 20), [{ page: 3, perPage: 20, skip: 0, take: 20 }]);
  assert.deepEqual(openalexPages(10, 20), [{ page: 1, perPage: 30, skip: 10, take: 20 }]);
  assert.deepEqual(openalexPages(199, 100), [{ page: 2, perPage: 150, skip: 49, take: 100 }]);
  for (const [offset, count] of [[9901, 99], [5, 1], [1234, 57], [9999, 1]]) {
    const slices = openalexPages(offset, count);
    const covered = slices.flatMap((s) =>
      Array.from({ length: s.take }, (_, i) => (s.page - 1) * s.perPage + s.skip + i)
    );
    assert.deepEqual(covered, Array.from({ length: count }, (_, i) => offset + i), `${offset}+${count}`);
    for (const s of slices) assert.ok(s.perPage <= 200);
  }
});

Deno.test("search_papers over MCP: arXiv", async (t) => {
  const { call, close, fetch } = await papersClient();
  try {
    await t.step("sends field-prefixed keywords, the submittedDate range, sort and paging", async () => {
      const out = structured<Search>(
        await call("search_papers", {
          query: "testing deep",
          source: "arxiv",
          from_date: "2021",
          to_date: "2022-06",
          sort: "date",
          count: 3,
        }),
      );
      const q = fetch.requests.at(-1)!.url.searchParams;
      assert.equal(q.get("search_query"), "all:testing AND all:deep AND submittedDate:[202101010000 TO 202206302359]");
      assert.deepEqual([q.get("sortBy"), q.get("sortOrder"), q.get("start"), q.get("max_results")], [
        "submittedDate",
        "descending",
        "0",
        "3",
      ]);
      assert.equal(out.total_count, 214881);
      assert.equal(out.papers.length, 3);
      assert.equal(out.papers[0].id, "2202.12139v1");
      assert.equal(out.papers[0].date, "2022-02-24");
      assert.equal(out.next?.arguments.cursor, out.next_cursor);
      assert.equal(startOf(out.next!.arguments).o, 3);
      assert.match(out.query_sent, /^search_query=all:testing AND all:deep AND submittedDate/);
      const own = structured<Search>(
        await call("search_papers", { query: "ti:testing ANDNOT au:smith", source: "arxiv", from_date: "2020" }),
      );
      assert.match(own.query_sent, /^search_query=\(ti:testing ANDNOT au:smith\) AND submittedDate:\[202001010000 TO /);
    });
    await t.step("a cursor's position is sent as start; past the hits there is no next page", async () => {
      const cursor = cursorAt({ query: "testing", source: "arxiv", sort: "relevance" }, { o: 40 });
      const out = structured<Search>(await call("search_papers", { query: "testing", source: "arxiv", cursor }));
      assert.equal(fetch.requests.at(-1)!.url.searchParams.get("start"), "40");
      assert.deepEqual(out.papers, []);
      assert.equal(out.next_cursor, undefined);
    });
    await t.step("a cursor replayed on another query is refused", async () => {
      const cursor = cursorAt({ query: "testing", source: "arxiv", sort: "relevance" }, { o: 40 });
      const error = errorOf(await call("search_papers", { query: "proteins", source: "arxiv", cursor }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /different search_papers query/);
    });
    await t.step("sorting arXiv by citations is refused with the way out", async () => {
      const error = errorOf(await call("search_papers", { query: "testing", source: "arxiv", sort: "citations" }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.recovery_hint, /source=openalex/);
    });
    await t.step("OpenAlex-only filters are reported as ignored, not silently dropped", async () => {
      const out = structured<Search>(
        await call("search_papers", { query: "testing", source: "arxiv", filter: "is_oa:true", count: 2 }),
      );
      assert.equal(out.warnings?.[0].code, "IgnoredArgument");
    });
  } finally {
    await close();
  }
});

Deno.test("search_papers over MCP: OpenAlex", async (t) => {
  const { call, close, fetch, client } = await papersClient({ env: { OPENALEX_API_KEY: "k-123456" } });
  try {
    await t.step("sends search=, the date/OA/type filters and the citation sort; returns cited counts", async () => {
      const result = await call("search_papers", {
        query: "english africa",
        source: "openalex",
        from_date: "1990",
        to_date: "2010-06-30",
        filter: "is_oa:false,type:book|book-chapter",
        sort: "citations",
        count: 2,
      });
      const out = structured<Search>(result);
      const q = fetch.requests.at(-1)!.url.searchParams;
      assert.equal(q.get("search"), "english africa");
      assert.equal(
        q.get("filter"),
        "from_publication_date:1990-01-01,to_publication_date:2010-06-30,is_oa:false,type:book|book-chapter",
      );
      assert.deepEqual([q.get("sort"), q.get("per_page"), q.get("page")], ["cited_by_count:desc", "2", "1"]);
      assert.equal(out.total_count, 4312);
      assert.deepEqual(out.papers.map((p) => [p.id, p.cited_by_count]), [["W4211228191", 543], ["W598112092", 301]]);
      assert.equal(startOf(out.next!.arguments).o, 2);
      const text = (result.content ?? [])[0].text!;
      assert.match(text, /^2 papers of 4312 \(openalex\)\./);
      assert.match(text, /\n## W4211228191: African American English\nauthors: Lisa J\. Green\ndate: 2002-08-08\n/);
      assert.match(text, /\ndoi: 10\.1017\/cbo9780511800306\n/);
      assert.doesNotMatch(text, /\nids: /, "no ids line that would only repeat the id and the DOI");
      assert.match(text, /\nabstract: This authoritative introduction to African American English .*…\n/);
      assert.match(text, /\nnext page: call again with cursor="[\w-]+" — search_papers \{"query":"english africa",/);
      assert.deepEqual(out.next, {
        tool: "search_papers",
        arguments: { ...out.next!.arguments, cursor: out.next_cursor, count: 2 },
      });
    });
    await t.step("a position inside a page is served from the page that holds the window", async () => {
      const defining = { query: "english", source: "openalex", filter: "title.search:english", sort: "relevance" };
      const out = structured<Search>(
        await call("search_papers", { ...defining, count: 20, cursor: cursorAt(defining, { o: 10 }) }),
      );
      const q = fetch.requests.at(-1)!.url.searchParams;
      assert.deepEqual([q.get("per_page"), q.get("page")], ["30", "1"]);
      assert.equal(q.get("filter"), "title.search:english");
      assert.equal(q.get("search"), "english");
      assert.equal(out.papers[0].id, "W2767655316");
      assert.equal(out.papers.length, 20);
      assert.equal(startOf(out.next!.arguments).o, 30);
    });
    await t.step("a page near the 10,000th hit stops there", async () => {
      const defining = { query: "english", source: "openalex", sort: "relevance" };
      const cursor = cursorAt(defining, { o: 9950 });
      const out = structured<Search>(await call("search_papers", { ...defining, count: 100, cursor }));
      const q = fetch.requests.at(-1)!.url.searchParams;
      assert.deepEqual([q.get("per_page"), q.get("page")], ["50", "200"]);
      assert.equal(out.next_cursor, undefined);
    });
    await t.step("search_papers is listed with a short description", async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((x) => x.name === "search_papers")!;
      assert.ok(tool.description!.length <= 450, `${tool.description!.length} chars`);
    });
  } finally {
    await close();
  }
});

Deno.test("search_papers turns arXiv's error feed for a malformed query into a query-syntax hint", async () => {
  const errorFeed: Route = (req) =>
    req.url.searchParams.get("search_query")?.includes("broken")
      ? new Response(fixture("arxiv/api/arxivpy__id_abc_HTTP400_error.atom.xml"), {
        status: 400,
        headers: { "content-type": "application/atom+xml" },
      })
      : undefined;
  const { call, close } = await papersClient({ routes: [errorFeed] });
  try {
    const error = errorOf(await call("search_papers", { query: "ti:broken AND (", source: "arxiv" }));
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.message, /arXiv rejected the request: .*\(search_query ti:broken AND \(\)/);
    assert.match(error.recovery_hint, /ti:, au:, abs:, all:/);
  } finally {
    await close();
  }
});

Deno.test("search_papers pages arXiv through its pacer: consecutive pages reach the API 3 s apart", async () => {
  const { call, close, times } = await papersClient();
  try {
    const pages = await Promise.all(
      [0, 10, 20].map((o) => {
        const defining = { query: "neutrino mass", source: "arxiv", sort: "relevance" };
        return call("search_papers", { ...defining, count: 10, ...(o ? { cursor: cursorAt(defining, { o }) } : {}) });
      }),
    );
    for (const page of pages) structured(page);
    const api = times.filter((r) => r.url.pathname === "/arxiv-api/query").map((r) => r.at).sort((a, b) => a - b);
    assert.equal(api.length, 3);
    assert.ok(api[1] - api[0] >= 3000 && api[2] - api[1] >= 3000, `spacing ${api}`);
  } finally {
    await close();
  }
});

Deno.test("the OpenAlex listing request selects what a hit shows: abstract, ids, retraction, venue, DOI", async () => {
  const { call, close, fetch } = await papersClient({ env: { OPENALEX_API_KEY: "k" } });
  try {
    structured(await call("search_papers", { query: "english africa", source: "openalex", count: 2 }));
    const select = fetch.requests.at(-1)!.url.searchParams.get("select")!.split(",");
    for (const field of ["abstract_inverted_index", "ids", "is_retracted", "primary_location", "doi"]) {
      assert.ok(select.includes(field), field);
    }
  } finally {
    await close();
  }
});
