import assert from "node:assert/strict";
import { fixture } from "../../helpers/runtime.ts";
import { errorOf, papersClient, structured } from "./mock.ts";

interface Paper {
  id: string;
  title: string | null;
  authors: string[];
  date: string | null;
  pdf_url: string | null;
  venue?: string;
  abstract?: string;
}
interface Latest {
  source: string;
  category: string;
  papers: Paper[];
  total?: number;
  warnings?: { code: string; message: string }[];
}

Deno.test("fetch_latest over MCP: arXiv", async (t) => {
  const { call, close, fetch } = await papersClient();
  try {
    await t.step("returns versioned ids that fetch_content accepts, with dates and PDF links", async () => {
      const out = structured<Latest>(await call("fetch_latest", { source: "arxiv", category: "cs.lg", count: 3 }));
      assert.equal(out.category, "cs.LG");
      assert.equal(out.papers.length, 3);
      assert.equal(out.total, 214881);
      assert.deepEqual(out.papers[0], {
        id: "2202.12139v1",
        title: "Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques",
        authors: ["Mohit Kumar Ahuja", "Arnaud Gotlieb", "Helge Spieker"],
        date: "2022-02-24",
        pdf_url: "https://arxiv.org/pdf/2202.12139v1",
        doi: "10.1109/ICSTW55395.2022.00035",
        venue: out.papers[0].venue,
        ids: { arxiv: "2202.12139", doi: "10.1109/ICSTW55395.2022.00035" },
        abstract: out.papers[0].abstract,
      });
      assert.match(out.papers[0].abstract!, /^Deep Learning \(DL\) has revolutionized .{200,}…$/);
      assert.ok(out.papers[0].abstract!.length <= 301);
      assert.equal(out.warnings, undefined);
      const q = fetch.requests.at(-1)!.url.searchParams;
      assert.equal(q.get("search_query"), "cat:cs.LG");
    });
    await t.step("an archive names many categories: AMBIGUOUS_QUERY listing them", async () => {
      const error = errorOf(await call("fetch_latest", { source: "arxiv", category: "cs" }));
      assert.equal(error.code, "AMBIGUOUS_QUERY");
      assert.match(
        error.message,
        /^'cs' is an arXiv archive with \d+ categories: cs\.AI \(Artificial Intelligence\), /,
      );
      assert.match(error.recovery_hint, /category="cs\.AI"/);
    });
    await t.step("a name shared by two active categories: AMBIGUOUS_QUERY naming both", async () => {
      const error = errorOf(await call("fetch_latest", { source: "arxiv", category: "Machine Learning" }));
      assert.equal(error.code, "AMBIGUOUS_QUERY");
      assert.equal(
        error.message,
        '"Machine Learning" is the name of 2 arXiv categories: cs.LG (Machine Learning), stat.ML (Machine Learning).',
      );
    });
    await t.step("a name of one active category is resolved, and says so", async () => {
      const out = structured<Latest>(
        await call("fetch_latest", { source: "arxiv", category: "computation and language", count: 2 }),
      );
      assert.equal(out.category, "cs.CL", "the retired cmp-lg shares the name; the active category wins");
      assert.equal(out.warnings?.[0].code, "CategoryResolved");
    });
    await t.step("a partial name is INVALID_INPUT with the matching codes suggested", async () => {
      const error = errorOf(await call("fetch_latest", { source: "arxiv", category: "Learning" }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.recovery_hint, /cs\.LG \(Machine Learning\).*stat\.ML \(Machine Learning\)/);
    });
    await t.step("a retired category still answers, with a warning", async () => {
      const out = structured<Latest>(await call("fetch_latest", { source: "arxiv", category: "cmp-lg", count: 2 }));
      assert.equal(out.warnings?.[0].code, "RetiredCategory");
    });
    await t.step("count below 1 is refused by the schema (there is no maximum)", async () => {
      const error = errorOf(await call("fetch_latest", { source: "arxiv", category: "cs.LG", count: 0 }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /'count'/);
    });
  } finally {
    await close();
  }
});

Deno.test("fetch_latest reports arXiv's short listing as partial: 10 of 50 with the real total and a warning", async () => {
  // The mock answers start=10 with the built empty page (totalResults 0) that arXiv sometimes sends.
  const { call, close } = await papersClient();
  try {
    const out = structured<Latest>(await call("fetch_latest", { source: "arxiv", category: "cs.LG", count: 50 }));
    assert.equal(out.papers.length, 10);
    assert.equal(out.total, 214881);
    assert.deepEqual(out.warnings, [{
      code: "PartialResult",
      message: "partial result: 10 of 50 papers; arXiv returned no new entries at start=10 of 214881 results; " +
        "retry later for the rest.",
    }]);
  } finally {
    await close();
  }
});

Deno.test("fetch_latest paces arXiv: two calls reach the API at least 3 s apart and neither is rejected", async () => {
  const { call, close, clock, times } = await papersClient();
  try {
    const [a, b] = await Promise.all([
      call("fetch_latest", { source: "arxiv", category: "cs.AI", count: 2 }),
      call("fetch_latest", { source: "arxiv", category: "math.AG", count: 2 }),
    ]);
    structured(a);
    structured(b);
    const api = times.filter((r) => r.url.pathname === "/arxiv-api/query");
    assert.equal(api.length, 2);
    assert.ok(Math.abs(api[1].at - api[0].at) >= 3000, `spacing ${api[1].at - api[0].at} ms`);
    assert.ok(clock.now() > 0);
  } finally {
    await close();
  }
});

Deno.test("fetch_latest treats arXiv's 'Rate exceeded.' as throttling, never as an empty list", async (t) => {
  await t.step("throttled every time: RATE_LIMITED", async () => {
    const { call, close } = await papersClient({
      routes: [
        (req) => req.url.pathname.endsWith("/query") ? new Response("Rate exceeded.", { status: 200 }) : undefined,
      ],
    });
    try {
      const result = await call("fetch_latest", { source: "arxiv", category: "cs.LG", count: 5 });
      assert.equal(result.isError, true);
      assert.equal(errorOf(result).code, "RATE_LIMITED");
    } finally {
      await close();
    }
  });
  await t.step("throttled once: the retry succeeds", async () => {
    let throttled = 0;
    const { call, close, times } = await papersClient({
      routes: [
        (req) => req.url.pathname.endsWith("/query") && throttled++ === 0 ? new Response("Rate exceeded.") : undefined,
      ],
    });
    try {
      const out = structured<Latest>(await call("fetch_latest", { source: "arxiv", category: "cs.LG", count: 5 }));
      assert.equal(out.papers.length, 5);
      const api = times.filter((r) => r.url.pathname === "/arxiv-api/query");
      assert.equal(api.length, 2);
      assert.ok(api[1].at - api[0].at >= 3000, "the retry waits its turn");
    } finally {
      await close();
    }
  });
});

Deno.test("fetch_latest over MCP: OpenAlex", async (t) => {
  await t.step("newest first, not after today; key and budget notices go to the log once", async () => {
    const { call, close, fetch, logs } = await papersClient();
    try {
      const out = structured<Latest>(await call("fetch_latest", { source: "openalex", category: "T11636", count: 3 }));
      assert.equal(out.category, "T11636");
      assert.equal(out.papers.length, 3);
      assert.equal(out.total, 4312);
      assert.match(out.papers[0].id, /^W\d+$/);
      const q = fetch.requests.find((r) => r.url.pathname === "/openalex/works")!.url.searchParams;
      assert.equal(q.get("filter"), "topics.id:T11636,to_publication_date:2026-03-01");
      assert.equal(q.get("sort"), "publication_date:desc");
      assert.equal(out.warnings, undefined);
      structured(await call("fetch_latest", { source: "openalex", category: "T11636", count: 2 }));
      const logged = logs.filter((r) => String(r.msg).startsWith("OpenAlex ")).map((r) => r.code);
      assert.deepEqual(logged, ["OpenAlexKeyMissing", "OpenAlexBudget"]);
    } finally {
      await close();
    }
  });
  await t.step("an arXiv category code is refused with a hint to use source=arxiv", async () => {
    const { call, close, fetch } = await papersClient();
    try {
      const error = errorOf(await call("fetch_latest", { source: "openalex", category: "cs.LG" }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /cs\.LG is an arXiv category \(Machine Learning\)/);
      assert.match(error.recovery_hint, /source=arxiv/);
      assert.equal(fetch.requests.length, 0, "no topic search that would pick an unrelated topic");
    } finally {
      await close();
    }
  });
  await t.step("a concept id is accepted with a deprecation warning; field ids map to topics.field.id", async () => {
    const { call, close, fetch } = await papersClient({ env: { OPENALEX_API_KEY: "k" } });
    try {
      const out = structured<Latest>(
        await call("fetch_latest", { source: "openalex", category: "C71924100", count: 1 }),
      );
      assert.deepEqual(out.warnings?.map((w) => w.code), ["DeprecatedConcept"]);
      structured(
        await call("fetch_latest", { source: "openalex", category: "https://openalex.org/fields/27", count: 1 }),
      );
      const filters = fetch.requests.filter((r) => r.url.pathname === "/openalex/works").map((r) =>
        r.url.searchParams.get("filter")
      );
      assert.deepEqual(filters, [
        "concepts.id:C71924100,to_publication_date:2026-03-01",
        "topics.field.id:27,to_publication_date:2026-03-01",
      ]);
    } finally {
      await close();
    }
  });
  await t.step("F-1: fewer than 90 % complete records come back with a PartialSuccess warning", async () => {
    const names = [
      "commonmeta__work_dataset_pdb4hhb.json",
      "commonmeta__work_article_pone.0000030.json",
      "openalexpython__W2741809807_2025.json",
    ];
    const results = names.map((n) => JSON.parse(fixture(`openalex/${n}`)));
    results[0].authorships = [];
    results[1].publication_date = null;
    const body = JSON.stringify({ meta: { count: 3, per_page: 3, next_cursor: null }, results });
    const { call, close } = await papersClient({
      env: { OPENALEX_API_KEY: "k" },
      routes: [(req) => req.url.pathname === "/openalex/works" ? new Response(body) : undefined],
    });
    try {
      const out = structured<Latest>(await call("fetch_latest", { source: "openalex", category: "T11636", count: 3 }));
      assert.equal(out.papers.length, 3, "incomplete papers are still returned");
      const partial = out.warnings?.find((w) => w.code === "PartialSuccess");
      assert.equal(
        partial?.message,
        "2 of 3 papers (67 %) lack complete metadata (1 without authors, 1 without a date): OpenAlex has no such " +
          "data for them; they are returned as they are.",
      );
    } finally {
      await close();
    }
  });
  await t.step("an unknown filter value surfaces OpenAlex's 400 message", async () => {
    const { call, close } = await papersClient({
      routes: [
        (req) =>
          req.url.pathname === "/openalex/works"
            ? new Response(fixture("openalex/openalexpro__error_400_invalid_filter_field.json"), { status: 400 })
            : undefined,
      ],
    });
    try {
      const error = errorOf(await call("fetch_latest", { source: "openalex", category: "T1" }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /not a valid field/);
    } finally {
      await close();
    }
  });
});

Deno.test("fetch_latest: a count past 200 is paged upstream, not refused (seed 004)", async () => {
  const work = JSON.parse(fixture("openalex/commonmeta__work_article_pone.0000030.json"));
  const page = (from: number, n: number, next: string | null) =>
    JSON.stringify({
      meta: { count: 250, per_page: 200, next_cursor: next },
      results: Array.from({ length: n }, (_, i) => ({ ...work, id: `https://openalex.org/W${9_000_000 + from + i}` })),
    });
  const { call, close } = await papersClient({
    // A budget that holds 250 papers: this is about paging upstream; the budget cut is tested on its own.
    env: { OPENALEX_API_KEY: "k", SCIENCE_MCP_MAX_OUTPUT_CHARS: "2000000" },
    routes: [(req) => {
      if (req.url.pathname !== "/openalex/works") return undefined;
      const cursor = req.url.searchParams.get("cursor");
      return new Response(cursor === "*" ? page(0, 200, "c2") : page(200, 50, null));
    }],
  });
  try {
    const out = structured<Latest>(await call("fetch_latest", { source: "openalex", category: "T11636", count: 250 }));
    assert.equal(out.papers.length, 250);
  } finally {
    await close();
  }
});
