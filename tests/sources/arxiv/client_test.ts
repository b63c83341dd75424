import assert from "node:assert/strict";
import { ManualClock } from "../../../src/core/clock.ts";
import { ToolError } from "../../../src/core/errors.ts";
import { entryById, latestInCategory } from "../../../src/sources/arxiv/client.ts";
import { fixture, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";
import { settle, timed } from "../../tools/papers/mock.ts";

function setup(respond: (url: URL) => Response) {
  const clock = new ManualClock(1_700_000_000_000);
  const route = timed(clock, (req) => respond(req.url));
  const fetch = scriptedFetch(route);
  const runtime = testRuntime({ fetch, clock });
  const ctx = { upstream: runtime.upstream, signal: new AbortController().signal };
  return { clock, fetch, route, ctx };
}

const atom = (name: string) =>
  new Response(fixture(`arxiv/api/${name}`), { headers: { "content-type": "application/atom+xml" } });

Deno.test("latestInCategory asks for cat:<code> sorted by submission date, newest first", async () => {
  const { clock, fetch, ctx } = setup(() => atom("arxivpy__search_testing_m10.atom.xml"));
  const result = await settle(clock, latestInCategory(ctx, "cs.LG", 5));
  assert.equal(fetch.requests.length, 1);
  const url = fetch.requests[0].url;
  assert.equal(url.pathname, "/api/query");
  assert.equal(url.searchParams.get("search_query"), "cat:cs.LG");
  assert.equal(url.searchParams.get("sortBy"), "submittedDate");
  assert.equal(url.searchParams.get("sortOrder"), "descending");
  assert.equal(url.searchParams.get("start"), "0");
  assert.equal(url.searchParams.get("max_results"), "5");
  assert.equal(result.entries.length, 5);
  assert.equal(result.total, 214881);
});

Deno.test("latestInCategory pages where the last page ended, 3 s apart on one connection", async () => {
  const { clock, fetch, route, ctx } = setup((url) =>
    atom(
      url.searchParams.get("start") === "0"
        ? "arxivpy__search_testing_m10.atom.xml"
        : "arxivpy__2016_search_del_maestro.atom.xml",
    )
  );
  const result = await settle(clock, latestInCategory(ctx, "cond-mat.str-el", 15));
  assert.deepEqual(
    fetch.requests.map((r) => [r.url.searchParams.get("start"), r.url.searchParams.get("max_results")]),
    [
      ["0", "15"],
      ["10", "5"],
      // The second page brought 2 entries: arXiv's total (214881) says more exist, so a third is asked for.
      ["12", "3"],
    ],
  );
  assert.ok(route.times[1].at - route.times[0].at >= 3000, "second request at least 3 s after the first");
  assert.equal(result.entries.length, 12);
  assert.match(result.shortfall ?? "", /^partial result: 12 of 15 papers/);
});

Deno.test("latestInCategory stops on a page that brings nothing new and says so", async () => {
  const { clock, fetch, ctx } = setup(() => atom("arxivpy__search_testing_m10.atom.xml"));
  const result = await settle(clock, latestInCategory(ctx, "cs.SE", 30));
  assert.equal(fetch.requests.length, 2);
  assert.equal(result.entries.length, 10);
  assert.match(
    result.shortfall ?? "",
    /^partial result: 10 of 30 papers; arXiv returned no new entries at start=20 of 214881/,
  );
});

Deno.test("latestInCategory: a later empty page with totalResults 0 keeps the total and marks the result partial", async () => {
  const { clock, fetch, ctx } = setup((url) =>
    atom(
      url.searchParams.get("start") === "0"
        ? "arxivpy__search_testing_m10.atom.xml"
        : "built__search_cat_cs.LG_start10_empty.atom.xml",
    )
  );
  const result = await settle(clock, latestInCategory(ctx, "cs.LG", 50));
  assert.equal(fetch.requests.length, 2);
  assert.equal(result.entries.length, 10);
  assert.equal(result.total, 214881, "the empty page's totalResults 0 does not replace the real total");
  assert.equal(
    result.shortfall,
    "partial result: 10 of 50 papers; arXiv returned no new entries at start=10 of 214881 results",
  );
});

Deno.test("latestInCategory: an empty first page that still claims results is partial, an empty category is not", async (t) => {
  await t.step("claims results", async () => {
    const body = fixture("arxiv/api/built__search_cat_cs.LG_start10_empty.atom.xml")
      .replace("<opensearch:totalResults>0<", "<opensearch:totalResults>7<");
    const { clock, ctx } = setup(() => new Response(body));
    const result = await settle(clock, latestInCategory(ctx, "cs.LG", 5));
    assert.equal(result.total, 7);
    assert.match(result.shortfall ?? "", /^partial result: 0 of 5 papers/);
  });
  await t.step("empty category", async () => {
    const { clock, ctx } = setup(() => atom("arxivpy__id_0000.0000_empty.atom.xml"));
    const result = await settle(clock, latestInCategory(ctx, "cs.LG", 5));
    assert.deepEqual(result, { entries: [], total: 0 });
  });
});

Deno.test("entryById asks for one id and maps arXiv's error feed to INVALID_INPUT", async (t) => {
  await t.step("found", async () => {
    const { clock, fetch, ctx } = setup(() => atom("arxivpy__id_2104.12255v1.atom.xml"));
    const entry = await settle(clock, entryById(ctx, "2104.12255"));
    assert.equal(fetch.requests[0].url.searchParams.get("id_list"), "2104.12255");
    assert.equal(entry?.id, "2104.12255v1");
  });
  await t.step("not found is undefined, not an error", async () => {
    const { clock, ctx } = setup(() => atom("arxivpy__id_0000.0000_empty.atom.xml"));
    assert.equal(await settle(clock, entryById(ctx, "0000.0000")), undefined);
  });
  await t.step("HTTP 400 error feed", async () => {
    const { clock, ctx } = setup(() =>
      new Response(fixture("arxiv/api/arxivpy__id_abc_HTTP400_error.atom.xml"), { status: 400 })
    );
    await assert.rejects(
      settle(clock, entryById(ctx, "abc")),
      (e) => e instanceof ToolError && e.code === "INVALID_INPUT" && /incorrect id format for abc/.test(e.message),
    );
  });
});
