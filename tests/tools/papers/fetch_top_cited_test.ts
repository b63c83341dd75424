import assert from "node:assert/strict";
import { errorOf, papersClient, structured } from "./mock.ts";

interface TopCited {
  papers: { id: string; cited_by_count: number }[];
  concept_used: { id: string; level: string; name?: string; resolved_from?: string };
  total?: number;
  warnings?: { code: string; message: string }[];
}

Deno.test("fetch_top_cited over MCP", async (t) => {
  const { call, close, fetch } = await papersClient({ env: { OPENALEX_API_KEY: "k" } });
  const works = () => fetch.requests.filter((r) => r.url.pathname === "/openalex/works").map((r) => r.url.searchParams);
  try {
    await t.step("a topic id: sorted by citations since the date, counts included", async () => {
      const out = structured<TopCited>(
        await call("fetch_top_cited", { concept: "T11636", since: "2020-01-01", count: 4 }),
      );
      assert.equal(out.papers.length, 4);
      assert.deepEqual(out.concept_used, { id: "T11636", level: "topic" });
      assert.equal(out.papers[0].cited_by_count, 543);
      const q = works().at(-1)!;
      assert.equal(q.get("filter"), "topics.id:T11636,from_publication_date:2020-01-01");
      assert.equal(q.get("sort"), "cited_by_count:desc");
      assert.equal(q.get("per_page"), "4");
    });
    await t.step("a plain name is resolved through topic search and the choice is reported", async () => {
      const out = structured<TopCited>(
        await call("fetch_top_cited", { concept: "artificial intelligence health", since: "2022-01-01", count: 2 }),
      );
      assert.deepEqual(out.concept_used, {
        id: "T11636",
        level: "topic",
        name: "Artificial Intelligence in Healthcare and Education",
        resolved_from: "artificial intelligence health",
      });
      const search = fetch.requests.find((r) => r.url.pathname === "/openalex/topics")!.url.searchParams;
      assert.equal(search.get("search"), "artificial intelligence health");
      const resolved = out.warnings!.find((w) => w.code === "TopicResolved")!;
      assert.match(
        resolved.message,
        /resolved to topic T11636 \(Artificial Intelligence in Healthcare and Education, in Health Informatics\)\. Other matches: T\d+ \([^)]*[Hh]ealth[^)]*\)/,
      );
      assert.equal(works().at(-1)!.get("filter"), "topics.id:T11636,from_publication_date:2022-01-01");
    });
    await t.step("a name nothing matches is UNRESOLVED_ENTITY, not an empty list", async () => {
      const error = errorOf(await call("fetch_top_cited", { concept: "zzqx flurbo", since: "2020-01-01" }));
      assert.equal(error.code, "UNRESOLVED_ENTITY");
    });
    await t.step("dates are checked: format, calendar and not in the future", async () => {
      for (const since of ["2020/01/01", "2021-02-30", "2030-01-01"]) {
        const error = errorOf(await call("fetch_top_cited", { concept: "T11636", since }));
        assert.equal(error.code, "INVALID_INPUT", since);
        assert.match(error.message, /'since'/);
      }
    });
    await t.step("a work id is not a concept", async () => {
      const error = errorOf(await call("fetch_top_cited", { concept: "W2741809807", since: "2020-01-01" }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.recovery_hint, /T11636, fields\/27 or subfields\/2718/);
    });
  } finally {
    await close();
  }
});
