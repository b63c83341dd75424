import assert from "node:assert/strict";
import { withTools } from "../../helpers/tool_harness.ts";
import { assertChartPng, type ChartImage, tableRows } from "./chart_checks.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "papers", NCBI_API_KEY: "", OPENALEX_API_KEY: "test-key" };

interface Trend {
  counts: { year: number; count: number }[];
  total: number;
  fromYear: number;
  toYear: number;
  image: ChartImage;
}

Deno.test("generate_publication_trend from PubMed: one count request per year, with progress", async (t) => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    await t.step("every year is asked once with rettype=count; the table and the chart carry the counts", async () => {
      const progress: number[] = [];
      const result = await h.call(
        "generate_publication_trend",
        { query: "heparin", fromYear: 2000, toYear: 2012 },
        (p) => progress.push(p.progress),
      );
      await assertChartPng(result);
      const s = result.structuredContent as unknown as Trend;
      const searches = h.requests.filter((r) => r.url.pathname.endsWith("/esearch.fcgi"));
      assert.equal(searches.length, 13);
      for (
        const [i, r] of searches.map((r) => r.url.searchParams).sort((a, b) => +a.get("mindate")! - +b.get("mindate")!)
          .entries()
      ) {
        assert.equal(r.get("rettype"), "count");
        assert.equal(r.get("term"), "heparin");
        assert.equal(r.get("datetype"), "pdat");
        assert.equal(r.get("mindate"), String(2000 + i));
        assert.equal(r.get("maxdate"), String(2000 + i));
      }
      assert.deepEqual(s.counts.map((c) => c.year), Array.from({ length: 13 }, (_, i) => 2000 + i));
      assert.equal(s.total, s.counts.reduce((a, c) => a + c.count, 0));
      assert.ok(s.total > 0, "the recorded corpus has records in 2000–2012");
      assert.deepEqual(tableRows(result.content[0].text), s.counts.map((c) => [String(c.year), String(c.count)]));
      assert.deepEqual(progress, Array.from({ length: 13 }, (_, i) => i + 1));
    });
    await t.step("a range that overlaps a drawn one asks only for the new years (counts cached per year)", async () => {
      const before = h.requests.length;
      const result = await h.call("generate_publication_trend", {
        query: "heparin",
        fromYear: 2005,
        toYear: 2014,
        kind: "bar",
      });
      await assertChartPng(result);
      const asked = h.requests.slice(before).map((r) => r.url.searchParams.get("mindate")).sort();
      assert.deepEqual(asked, ["2013", "2014"]);
    });
    await t.step("more than 50 years is INVALID_INPUT, before any request", async () => {
      const before = h.requests.length;
      const result = await h.call("generate_publication_trend", { query: "heparin", fromYear: 1950, toYear: 2024 });
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent.error as { code: string }).code, "INVALID_INPUT");
      assert.equal(h.requests.length, before);
    });
    await t.step("a year before 1800 is INVALID_INPUT naming fromYear", async () => {
      const result = await h.call("generate_publication_trend", { query: "heparin", fromYear: 1700, toYear: 1720 });
      assert.equal(result.isError, true);
      assert.match((result.structuredContent.error as { message: string }).message, /fromYear/);
    });
    await t.step("the SVG resource papers://chart/{id} serves the chart", async () => {
      const result = await h.call("generate_publication_trend", { query: "heparin", fromYear: 2000, toYear: 2012 });
      const uri = (result.structuredContent.image as ChartImage).svgUri;
      assert.match(uri, /^papers:\/\/chart\/[0-9a-f]{16}$/);
      const svg = ((await h.client.readResource({ uri })).contents[0] as { text: string }).text;
      assert.match(svg, /PubMed articles per year: heparin/);
    });
  });
});

Deno.test("generate_publication_trend from OpenAlex: one group_by request, years without works are zeros", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("generate_publication_trend", {
      query: "english africa",
      source: "openalex",
      fromYear: 1990,
      toYear: 2024,
    });
    await assertChartPng(result);
    const works = h.requests.filter((r) => r.url.pathname.endsWith("/works"));
    assert.equal(works.length, 1);
    assert.equal(works[0].url.searchParams.get("group_by"), "publication_year");
    assert.equal(works[0].url.searchParams.get("filter"), "publication_year:1990-2024");
    assert.equal(works[0].url.searchParams.get("search"), "english africa");
    const s = result.structuredContent as unknown as Trend;
    assert.equal(s.counts.length, 35);
    assert.ok(s.counts.some((c) => c.count === 0) && s.total > 0);
    assert.deepEqual(tableRows(result.content[0].text), s.counts.map((c) => [String(c.year), String(c.count)]));
  });
});

/** An ESearch count answer carrying `count` as its Count. */
const esearchCount = (count: string) =>
  new Response(`<?xml version="1.0"?><eSearchResult><Count>${count}</Count></eSearchResult>`, {
    headers: { "content-type": "text/xml" },
  });

Deno.test("a hostile ESearch Count (too large, negative, NaN) is UPSTREAM_ERROR naming the value, never drawn", async () => {
  for (const count of ["99999999999999999999", "-5", "NaN"]) {
    const routes = [(r: { url: URL }) => r.url.pathname.endsWith("/esearch.fcgi") ? esearchCount(count) : undefined];
    await withTools({ env: ENV, driveClock: true, routes }, async (h) => {
      const result = await h.call("generate_publication_trend", { query: "heparin", fromYear: 2020, toYear: 2021 });
      assert.equal(result.isError, true, count);
      const error = result.structuredContent.error as { code: string; message: string };
      assert.equal(error.code, "UPSTREAM_ERROR", count);
      assert.ok(error.message.includes(`"${count}"`), error.message);
    });
  }
});

Deno.test("OpenAlex groups with bad keys or counts are left out with one warning; the rest is drawn", async () => {
  const group_by = [
    { key: "2020", key_display_name: "2020", count: 7 },
    { key: "abc", key_display_name: "abc", count: 3 },
    { key: "2021", key_display_name: "2021", count: -5 },
    { key: "2022", key_display_name: "2022", count: 1e308 },
    { key: "x".repeat(5000), key_display_name: "long", count: 1 },
  ];
  const routes = [
    (r: { url: URL }) =>
      r.url.searchParams.get("group_by") ? Response.json({ meta: { count: 11 }, group_by }) : undefined,
  ];
  await withTools({ env: ENV, driveClock: true, routes }, async (h) => {
    const result = await h.call("generate_publication_trend", {
      query: "x",
      source: "openalex",
      fromYear: 2020,
      toYear: 2022,
    });
    assert.equal(result.isError, undefined, result.content[0].text);
    await assertChartPng(result);
    const s = result.structuredContent as unknown as Trend & { warnings: string[] };
    assert.deepEqual(s.counts, [{ year: 2020, count: 7 }, { year: 2021, count: 0 }, { year: 2022, count: 0 }]);
    const dropped = s.warnings.filter((w) => /left out/.test(w));
    assert.equal(dropped.length, 1);
    assert.match(dropped[0], /left out 4 OpenAlex groups/);
    assert.match(dropped[0], /key "abc"/);
  });
});

Deno.test("a toYear after this year is INVALID_INPUT, before any request", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const thisYear = new Date(h.clock.now()).getUTCFullYear();
    const result = await h.call("generate_publication_trend", { query: "x", fromYear: 2000, toYear: thisYear + 1 });
    assert.equal(result.isError, true);
    const error = result.structuredContent.error as { code: string; message: string };
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.message, /toYear/);
    assert.equal(h.requests.length, 0);
  });
});
