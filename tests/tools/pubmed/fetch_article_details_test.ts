import assert from "node:assert/strict";
import { splitRawRecords } from "../../../src/sources/ncbi/pubmed/raw.ts";
import { fixture } from "../../helpers/runtime.ts";
import { mergedParams } from "../../helpers/mock_routes.ts";
import { callsTo, eutils, fixtureXml, mockRoutes, xml } from "./eutils_routes.ts";
import { dataOf, errorOf, withSession } from "./mcp_session.ts";

interface Article {
  pmid: string;
  title?: string;
  abstractText?: string;
  authors?: { lastName?: string; collectiveName?: string; affiliation?: string }[];
  meshTerms?: { descriptorName: string }[];
  grantList?: unknown[];
  journalInfo?: { title?: string; pages?: string; publicationDate: Record<string, string> };
  fullXml?: string;
  medlineText?: string;
  doi?: string;
}
interface FetchOut {
  requestedPmids: string[];
  articles: Article[];
  notFoundPmids: string[];
  eFetchDetails: { urls: string[]; requestMethod: string };
}

const BASELINE_PMIDS = [...splitRawRecords(fixture("ncbi/pubmed/pubmedparser__medline16n0902.xml")).keys()];

Deno.test("fetchArticleDetails returns parsed records in request order, accepting PMID: CURIEs", async () => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const out = dataOf<FetchOut>(
      await call("fetchArticleDetails", { pmids: ["PMID:30108519", "27797938", "30108519"] }),
    );
    assert.deepEqual(out.requestedPmids, ["30108519", "27797938"]);
    assert.deepEqual(out.articles.map((a) => a.pmid), ["30108519", "27797938"]);
    assert.deepEqual(out.notFoundPmids, []);
    assert.equal(out.eFetchDetails.requestMethod, "GET");
    assert.match(out.eFetchDetails.urls[0], /efetch\.fcgi\?db=pubmed&id=30108519%2C27797938&retmode=xml/);
    assert.doesNotMatch(JSON.stringify(out), /test-api-key-0123/);
    const [first, second] = out.articles;
    assert.match(first.abstractText!, /\( V\u0307O₂ₘₐₓ \)/);
    assert.equal(
      second.title,
      "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.",
    );
    assert.ok(second.meshTerms!.length > 0, "MeSH terms by default");
    assert.equal(second.grantList, undefined, "grants only on request");
    assert.equal(mergedParams(callsTo(requests, "efetch")[0]).get("id"), "30108519,27797938");
  });
});

Deno.test("fetchArticleDetails includes grants and leaves out MeSH when asked", async () => {
  await withSession([mockRoutes()], async ({ call }) => {
    const out = dataOf<FetchOut>(
      await call("fetchArticleDetails", { pmids: ["38147649"], includeMeshTerms: false, includeGrantInfo: true }),
    );
    assert.equal(out.articles[0].meshTerms, undefined);
    assert.deepEqual(out.articles[0].grantList, [{
      agency: "Wellcome Trust",
      country: "United Kingdom",
      acronym: "WT_",
    }]);
  });
});

Deno.test("fetchArticleDetails lists PMIDs PubMed does not know, beside the ones it found", async () => {
  await withSession([mockRoutes()], async ({ call }) => {
    const out = dataOf<FetchOut>(await call("fetchArticleDetails", { pmids: ["34843274", "99999999"] }));
    assert.deepEqual(out.articles.map((a) => a.pmid), ["34843274"]);
    assert.deepEqual(out.notFoundPmids, ["99999999"]);
  });
});

Deno.test("fetchArticleDetails answers ENTITY_NOT_FOUND when no PMID exists", async () => {
  await withSession([mockRoutes()], async ({ call }) => {
    const error = errorOf(await call("fetchArticleDetails", { pmids: ["99999998", "99999999"] }));
    assert.equal(error.code, "ENTITY_NOT_FOUND");
    assert.match(error.recovery_hint, /searchPubMedArticles/);
  });
});

Deno.test("fetchArticleDetails POSTs a long id list and still gets every record", async () => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const pmids = BASELINE_PMIDS.slice(0, 200);
    const out = dataOf<FetchOut>(await call("fetchArticleDetails", { pmids, detailLevel: "citation_data" }));
    assert.equal(out.eFetchDetails.requestMethod, "POST");
    assert.equal(out.articles.length, 200);
    const [request] = callsTo(requests, "efetch");
    assert.equal(request.method, "POST");
    assert.equal(new URLSearchParams(request.body).get("id"), pmids.join(","));
    assert.doesNotMatch(out.eFetchDetails.urls[0], /id=|api_key=test/);
  }, { SCIENCE_MCP_MAX_OUTPUT_CHARS: "1000000" });
});

Deno.test("fetchArticleDetails citation_data keeps only what a reference needs, MeSH as includeMeshTerms says", async () => {
  await withSession([mockRoutes()], async ({ call }) => {
    const [a] =
      dataOf<FetchOut>(await call("fetchArticleDetails", { pmids: ["34843274"], detailLevel: "citation_data" }))
        .articles;
    assert.equal(
      a.title,
      "Summary of the clinical practice guideline for the treatment of depression across three age cohorts.",
    );
    assert.equal(a.doi, "10.1037/amp0000904");
    assert.equal(a.journalInfo?.pages, "770-780");
    assert.equal(a.abstractText, undefined);
    // includeMeshTerms (default true) applies to citation_data as it does to abstract_plus.
    assert.ok(a.meshTerms?.some((m) => m.descriptorName === "Depression"), JSON.stringify(a.meshTerms));
    const [bare] = dataOf<FetchOut>(
      await call("fetchArticleDetails", { pmids: ["34843274"], detailLevel: "citation_data", includeMeshTerms: false }),
    ).articles;
    assert.equal(bare.meshTerms, undefined);
    assert.equal(bare.doi, "10.1037/amp0000904");
  });
});

Deno.test("fetchArticleDetails full_xml returns each record's raw XML", async () => {
  await withSession([mockRoutes()], async ({ call }) => {
    const [a] = dataOf<FetchOut>(await call("fetchArticleDetails", { pmids: ["30108519"], detailLevel: "full_xml" }))
      .articles;
    assert.match(a.fullXml!, /^<PubmedArticle>/);
    assert.match(a.fullXml!, /<mml:math xmlns:mml="http:\/\/www\.w3\.org\/1998\/Math\/MathML">/);
    assert.match(a.fullXml!, /<\/PubmedArticle>$/);
  });
});

Deno.test("fetchArticleDetails medline_text returns MEDLINE text per record", async () => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const out = dataOf<FetchOut>(
      await call("fetchArticleDetails", { pmids: ["19304878", "36410718", "1"], detailLevel: "medline_text" }),
    );
    assert.deepEqual(out.articles.map((a) => a.pmid), ["19304878", "36410718"]);
    assert.match(out.articles[0].medlineText!, /^PMID- 19304878\n/);
    assert.match(out.articles[0].medlineText!, /\nTI {2}- Biopython: freely available Python tools/);
    assert.deepEqual(out.notFoundPmids, ["1"]);
    assert.equal(mergedParams(callsTo(requests, "efetch")[0]).get("rettype"), "medline");
  });
});

Deno.test("fetchArticleDetails cuts a result over the output budget and its next call starts at the first PMID left out", async () => {
  const record = [...splitRawRecords(fixture("ncbi/pubmed/biopython__pubmed4.xml")).values()][0];
  const pmids = Array.from({ length: 200 }, (_, i) => String(40000000 + i));
  const body = `<PubmedArticleSet>${pmids.map((p) => record.replace(/27797938/g, p)).join("\n")}</PubmedArticleSet>`;
  await withSession([eutils({ efetch: () => xml(body) })], async ({ call }) => {
    const result = await call("fetchArticleDetails", { pmids });
    const out = dataOf<FetchOut>(result);
    const text = (result.content as { text: string }[])[0].text;
    assert.ok(text.length <= 24_000, `${text.length} characters`);
    assert.ok(out.articles.length >= 1 && out.articles.length < 200, `${out.articles.length} kept`);
    assert.deepEqual(out.articles.map((a) => a.pmid), pmids.slice(0, out.articles.length));
    const notice = text.split("\n").at(-1)!;
    assert.match(notice, new RegExp(`^cut: showing ${out.articles.length} of 200 articles .*output budget; next page`));
    const next = (out as unknown as { next: { arguments: Record<string, unknown> } }).next;
    const second = dataOf<FetchOut>(await call("fetchArticleDetails", next.arguments));
    assert.equal(second.articles[0].pmid, pmids[out.articles.length]);
  });
});

Deno.test("fetchArticleDetails rejects bad PMIDs before calling NCBI", async (t) => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const cases: [string, unknown][] = [
      ["an empty list", []],
      ["a non-numeric id", ["abc"]],
      ["a DOI", ["10.1037/amp0000904"]],
      ["more than 200 ids", Array.from({ length: 201 }, (_, i) => String(i + 1))],
    ];
    for (const [name, pmids] of cases) {
      await t.step(name, async () => {
        const error = errorOf(await call("fetchArticleDetails", { pmids }));
        assert.equal(error.code, "INVALID_INPUT");
        assert.match(error.message, /pmids/);
      });
    }
    assert.equal(requests.length, 0);
  });
});

Deno.test("fetchArticleDetails reports an EFetch <ERROR> body and an outage as UPSTREAM_ERROR", async () => {
  const routes = eutils({ efetch: () => fixtureXml("ncbi/eutils/pubmedly__efetch_empty_id_error.xml") });
  await withSession([routes], async ({ call }) => {
    const error = errorOf(await call("fetchArticleDetails", { pmids: ["1"] }));
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.match(error.message, /Supplied id parameter is empty/);
  });
  await withSession([eutils({ efetch: () => new Response("oops", { status: 502 }) })], async ({ call }) => {
    assert.equal(errorOf(await call("fetchArticleDetails", { pmids: ["1"] })).code, "UPSTREAM_ERROR");
  });
});

Deno.test("fetchArticleDetails shows a book chapter's contribution and revision dates, not only the series start", async () => {
  const routes = eutils({ efetch: () => fixtureXml("ncbi/pubmed/built__efetch_book_chapter_20301425.xml") });
  await withSession([routes], async ({ call }) => {
    const result = await call("fetchArticleDetails", { pmids: ["20301425"] });
    const out = dataOf<{ articles: (Article & { book?: { revisedDate?: Record<string, string> } })[] }>(result);
    assert.deepEqual(out.articles[0].book?.revisedDate, { year: "2023", month: "09", day: "21" });
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
    assert.match(text, /chapter contributed: 1998-09-04/);
    assert.match(text, /chapter revised: 2023-09-21/);
    assert.match(text, /series since: 1993/);
  });
});
