import assert from "node:assert/strict";
import { callsTo, eutils, fixtureXml } from "./eutils_routes.ts";
import { dataOf, errorOf, withSession } from "./mcp_session.ts";

interface SearchOut {
  effectiveESearchTerm: string;
  totalFound: number;
  retrievedPmidCount: number;
  pmids: string[];
  briefSummaries: {
    pmid: string;
    title: string;
    authors: string[];
    source: string;
    pubDate?: string;
    error?: string;
  }[];
  warnings: string[];
  eSearchUrl: string;
  eSummaryUrl?: string;
  searchParameters: Record<string, unknown>;
}

const historyRoutes = eutils({
  esearch: () => fixtureXml("ncbi/eutils/built__esearch_history_uids.xml"),
  esummary: () => fixtureXml("ncbi/eutils/eutilsjson__esummary.pubmed.xml"),
});

Deno.test("searchPubMedArticles returns PMIDs and ESummary 2.0 summaries over the search history", async () => {
  await withSession([historyRoutes], async ({ call, requests }) => {
    const out = dataOf<SearchOut>(
      await call("searchPubMedArticles", { queryTerm: "cancer", maxResults: 5, fetchBriefSummaries: 2 }),
    );
    assert.equal(out.totalFound, 2);
    assert.equal(out.retrievedPmidCount, 2);
    assert.deepEqual(out.pmids, ["22144687", "5683731"]);
    // ESummary lists 5683731 first; each summary is placed by its PMID, in the search's order.
    assert.deepEqual(out.briefSummaries.map((s) => [s.pmid, s.title]), [
      ["22144687", "GenBank."],
      ["5683731", "An assistive device for smoking."],
    ]);
    assert.deepEqual(out.briefSummaries[1], {
      pmid: "5683731",
      title: "An assistive device for smoking.",
      authors: ["Goldberg MJ", "Davis LJ"],
      source: "Paraplegia",
      pubDate: "1968-08",
      doi: "10.1038/sc.1968.18",
    });
    assert.deepEqual(out.warnings, []);
    const [search] = callsTo(requests, "esearch");
    assert.equal(search.url.searchParams.get("usehistory"), "y");
    assert.equal(search.url.searchParams.get("sort"), "relevance");
    const summary = callsTo(requests, "esummary")[0].url.searchParams;
    assert.deepEqual(
      [summary.get("version"), summary.get("WebEnv"), summary.get("query_key"), summary.get("retmax")],
      ["2.0", "MCID_6927d6e7fee3e90f880ec190", "1", "2"],
    );
    assert.match(out.eSearchUrl, /\/esearch\.fcgi\?.*term=cancer/);
    assert.match(out.eSummaryUrl!, /query_key=1/);
    assert.doesNotMatch(JSON.stringify(out), /test-api-key-0123/);
  });
});

Deno.test("searchPubMedArticles never shows summaries about other PMIDs as the results' own", async () => {
  // The recorded history search found 41297076, 41297074, ...; the recorded ESummary is about 5683731 and 22144687.
  const routes = eutils({
    esearch: () => fixtureXml("ncbi/eutils/biopython__esearch2.xml"),
    esummary: () => fixtureXml("ncbi/eutils/eutilsjson__esummary.pubmed.xml"),
  });
  await withSession([routes], async ({ call }) => {
    const out = dataOf<SearchOut>(
      await call("searchPubMedArticles", { queryTerm: "cancer", maxResults: 5, fetchBriefSummaries: 2 }),
    );
    assert.deepEqual(out.pmids.slice(0, 2), ["41297076", "41297074"]);
    assert.deepEqual(
      out.briefSummaries.map((s) => [s.pmid, s.title, s.error]),
      [
        ["41297076", "", "NCBI's ESummary answer did not include this PMID"],
        ["41297074", "", "NCBI's ESummary answer did not include this PMID"],
      ],
    );
    assert.deepEqual(out.warnings, [
      "NCBI ESummary answered for other PMIDs than requested: no summary for PMID 41297076, 41297074; summaries " +
      "for PMID 5683731, 22144687, which were not asked for, were left out.",
    ]);
  });
});

Deno.test("searchPubMedArticles sends the query as typed, minus control characters, with filters", async () => {
  await withSession([historyRoutes], async ({ call, requests }) => {
    const out = dataOf<SearchOut>(
      await call("searchPubMedArticles", {
        queryTerm: '"heart attack"[Title] & <aspirin>\u0007\n',
        sortBy: "journal_name",
        dateRange: { minDate: "2019-05", dateType: "edat" },
        filterByPublicationTypes: ["Review", "Clinical Trial"],
      }),
    );
    const expected = '("heart attack"[Title] & <aspirin>) AND ("Review"[pt] OR "Clinical Trial"[pt]) AND ' +
      '("2019/05"[edat] : "3000"[edat])';
    assert.equal(out.effectiveESearchTerm, expected);
    const p = callsTo(requests, "esearch")[0].url.searchParams;
    assert.equal(p.get("term"), expected);
    for (const name of ["datetype", "mindate", "maxdate"]) {
      assert.equal(p.has(name), false, `${name}: dates are in the term`);
    }
    assert.equal(p.get("sort"), "JournalName");
    assert.equal(p.has("usehistory"), false);
    assert.equal(callsTo(requests, "esummary").length, 0);
    assert.deepEqual(out.searchParameters.dateRange, { minDate: "2019/05", maxDate: "3000", dateType: "edat" });
  });
});

Deno.test("searchPubMedArticles builds every filter into the Entrez term with its field tag", async () => {
  await withSession([historyRoutes], async ({ call, requests }) => {
    const out = dataOf<SearchOut & { queryTranslation?: string }>(
      await call("searchPubMedArticles", {
        queryTerm: "crispr",
        author: ["Doudna JA", 'Char"pentier [E]'],
        journal: "Nature",
        meshTerms: ["Gene Editing", "Humans"],
        filterByPublicationTypes: ["Review"],
        language: "English",
        freeFullText: true,
        dateRange: { minDate: "2020-01-01", maxDate: "2021/12/31" },
      }),
    );
    const expected = '(crispr) AND "Doudna JA"[au] AND "Charpentier E"[au] AND "Nature"[ta] AND ' +
      '"Gene Editing"[mh] AND "Humans"[mh] AND "Review"[pt] AND english[la] AND free full text[sb] AND ' +
      '("2020/01/01"[dp] : "2021/12/31"[dp])';
    assert.equal(callsTo(requests, "esearch")[0].url.searchParams.get("term"), expected);
    assert.equal(out.effectiveESearchTerm, expected);
    // The translation is NCBI's own (here the built history answer's), shown back unchanged.
    assert.equal(out.queryTranslation, "5683731[uid] OR 22144687[uid]");
  });
});

Deno.test("searchPubMedArticles pages with offset sent as retstart, and summarises that page (by id without a WebEnv)", async () => {
  const routes = eutils({
    esearch: () => fixtureXml("ncbi/eutils/biopython__esearch1.xml"),
    esummary: () => fixtureXml("ncbi/eutils/eutilsjson__esummary.pubmed.xml"),
  });
  await withSession([routes], async ({ call, requests }) => {
    const out = dataOf<SearchOut & { nextOffset?: number }>(
      await call("searchPubMedArticles", {
        queryTerm: "biopython",
        maxResults: 20,
        offset: 20,
        fetchBriefSummaries: 2,
      }),
    );
    const p = callsTo(requests, "esearch")[0].url.searchParams;
    assert.deepEqual([p.get("retstart"), p.get("retmax"), p.get("usehistory")], ["20", "20", "y"]);
    assert.equal(callsTo(requests, "esummary")[0].url.searchParams.get("id"), "41282813,41148224");
    assert.equal(out.searchParameters.offset, 20);
    assert.equal(out.nextOffset, 40);
    const next = (out as unknown as { next: { tool: string; arguments: Record<string, unknown> } }).next;
    assert.deepEqual(next.tool, "searchPubMedArticles");
    assert.deepEqual([next.arguments.queryTerm, next.arguments.offset, next.arguments.maxResults], [
      "biopython",
      40,
      20,
    ]);
    const last = dataOf<SearchOut & { nextOffset?: number }>(
      await call("searchPubMedArticles", { queryTerm: "biopython", maxResults: 20, offset: 60 }),
    );
    assert.equal(callsTo(requests, "esearch")[1].url.searchParams.get("retstart"), "60");
    assert.equal(last.nextOffset, undefined, "Count is 63: the page from 60 is the last");
    const error = errorOf(
      await call("searchPubMedArticles", { queryTerm: "biopython", maxResults: 100, offset: 9950 }),
    );
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.message, /'offset'/);
  });
});

Deno.test("searchPubMedArticles reports ErrorList entries as warnings beside the results", async () => {
  const routes = eutils({ esearch: () => fixtureXml("ncbi/eutils/eutilsjson__esearch.error.xml") });
  await withSession([routes], async ({ call }) => {
    const out = dataOf<SearchOut>(
      await call("searchPubMedArticles", { queryTerm: "obstetrics[MeSH] OR fleegle[MeSH]" }),
    );
    assert.equal(out.totalFound, 5163);
    assert.equal(out.pmids.length, 20);
    assert.deepEqual(out.warnings, ["PhraseNotFound: fleegle[MeSH Terms]"]);
  });
});

Deno.test("searchPubMedArticles reports why nothing was found instead of a bare zero", async () => {
  const routes = eutils({ esearch: () => fixtureXml("ncbi/eutils/built__esearch_warninglist.xml") });
  await withSession([routes], async ({ call, requests }) => {
    const out = dataOf<SearchOut>(
      await call("searchPubMedArticles", { queryTerm: '"nonexistent phrase zqx"', fetchBriefSummaries: 3 }),
    );
    assert.equal(out.totalFound, 0);
    assert.deepEqual(out.pmids, []);
    assert.deepEqual(out.warnings, [
      "PhraseNotFound: nonexistentzqx",
      'QuotedPhraseNotFound: "nonexistent phrase zqx"',
      "OutputMessage: No items found.",
    ]);
    assert.equal(callsTo(requests, "esummary").length, 0, "no ESummary for an empty result");
  });
});

Deno.test("searchPubMedArticles turns an ESearch <ERROR> into an INVALID_INPUT envelope", async () => {
  const routes = eutils({ esearch: () => fixtureXml("ncbi/eutils/eutilsjson__esearch.baderror.xml") });
  await withSession([routes], async ({ call }) => {
    const error = errorOf(await call("searchPubMedArticles", { queryTerm: "anything" }));
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.message, /Invalid db name specified: fleegle/);
  });
});

Deno.test("searchPubMedArticles rejects bad input before calling NCBI", async (t) => {
  await withSession([historyRoutes], async ({ call, requests }) => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["a query under 3 characters", { queryTerm: "ab" }, /queryTerm/],
      ["a query of control characters", { queryTerm: "\u0000a\u0001\u0002" }, /queryTerm/],
      ["maxResults over 1000", { queryTerm: "cancer", maxResults: 1001 }, /maxResults/],
      ["a malformed date", { queryTerm: "cancer", dateRange: { minDate: "2020/13" } }, /dateRange\.minDate/],
      ["an unknown dateRange key", { queryTerm: "cancer", dateRange: { from: "2020" } }, /from/],
      ["minDate after maxDate", { queryTerm: "cancer", dateRange: { minDate: "2021", maxDate: "2020" } }, /dateRange/],
      ["fetchBriefSummaries over 100", { queryTerm: "cancer", fetchBriefSummaries: 101 }, /fetchBriefSummaries/],
    ];
    for (const [name, args, field] of cases) {
      await t.step(name, async () => {
        const error = errorOf(await call("searchPubMedArticles", args));
        assert.equal(error.code, "INVALID_INPUT");
        assert.match(error.message, field);
      });
    }
    assert.equal(requests.length, 0);
  });
});

Deno.test("searchPubMedArticles reports an NCBI outage as UPSTREAM_ERROR", async () => {
  const routes = eutils({ esearch: () => new Response("Service Unavailable", { status: 503 }) });
  await withSession([routes], async ({ call }) => {
    const error = errorOf(await call("searchPubMedArticles", { queryTerm: "cancer" }));
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.doesNotMatch(error.message, /test-api-key-0123/);
  });
});
