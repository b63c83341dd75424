import assert from "node:assert/strict";
import { callsTo, eutils, fixtureXml, mockRoutes, xml } from "./eutils_routes.ts";
import { dataOf, errorOf, withSession } from "./mcp_session.ts";

interface RelOut {
  sourcePmid: string;
  relationshipType: string;
  relatedArticles: {
    pmid: string;
    title: string;
    authors: string[];
    score?: number;
    rawScore?: number;
    linkUrl: string;
    summaryError?: string;
  }[];
  citations: Record<string, string>;
  retrievedCount: number;
  totalLinked?: number;
  notice?: string;
  eLinkUrl?: string;
  eSummaryUrl?: string;
  eFetchUrl?: string;
}

/** ELink with real scores; ESummary answering the recorded summaries for any requested ids, in order. */
function similarRoutes() {
  const summaries = fixtureXml("ncbi/eutils/eutilsjson__esummary.pubmed.xml");
  return eutils({
    elink: () => fixtureXml("ncbi/eutils/biopython__elink1_2008_scores.xml"),
    esummary: () => summaries.clone(),
  });
}

Deno.test("similar articles come from ELink neighbor_score with real scores, the source excluded", async () => {
  await withSession([similarRoutes()], async ({ call, requests }) => {
    const out = dataOf<RelOut>(
      await call("getArticleRelationships", { sourcePmid: "PMID:9298984", maxRelatedResults: 3 }),
    );
    assert.equal(out.sourcePmid, "9298984");
    assert.equal(out.relationshipType, "pubmed_similar_articles");
    // score is normalised to 0-1 against the best similar article; rawScore is PubMed's own number.
    assert.deepEqual(out.relatedArticles.map((a) => [a.pmid, a.score, a.rawScore]), [
      ["8794856", 1, 65259341],
      ["9700164", 0.9247, 60347327],
      ["7914521", 0.8327, 54343405],
    ]);
    assert.equal(out.retrievedCount, 3);
    assert.equal(out.totalLinked, 143);
    assert.equal(out.relatedArticles[0].linkUrl, "https://pubmed.ncbi.nlm.nih.gov/8794856/");
    const elink = callsTo(requests, "elink")[0].url.searchParams;
    assert.equal(elink.get("cmd"), "neighbor_score");
    const [summary] = callsTo(requests, "esummary");
    assert.equal(summary.url.searchParams.get("id"), "8794856,9700164,7914521", "one ESummary call for all");
    assert.match(out.eLinkUrl!, /elink\.fcgi/);
    assert.doesNotMatch(JSON.stringify(out), /test-api-key-0123/);
  });
});

Deno.test("related articles carry ESummary titles and authors, or say why they have none", async () => {
  const routes = eutils({
    elink: () =>
      xml(
        "<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>1</Id></IdList><LinkSetDb><DbTo>pubmed</DbTo>" +
          "<LinkName>pubmed_pubmed_citedin</LinkName><Link><Id>22144687</Id></Link><Link><Id>5</Id></Link>" +
          "</LinkSetDb></LinkSet></eLinkResult>",
      ),
    esummary: () => fixtureXml("ncbi/eutils/eutilsjson__esummary.pubmed.xml"),
  });
  await withSession([routes], async ({ call }) => {
    const out = dataOf<RelOut>(
      await call("getArticleRelationships", { sourcePmid: "1", relationshipType: "pubmed_citedin" }),
    );
    assert.deepEqual(out.relatedArticles[0], {
      pmid: "22144687",
      title: "GenBank.",
      authors: ["Benson DA", "Karsch-Mizrachi I", "Clark K", "Lipman DJ", "Ostell J", "Sayers EW"],
      linkUrl: "https://pubmed.ncbi.nlm.nih.gov/22144687/",
    });
    assert.equal(out.relatedArticles[1].title, "");
    assert.equal(out.relatedArticles[1].summaryError, "NCBI's ESummary answer did not include this PMID");
    // The recorded ESummary also summarises 5683731, which was not asked for: left out, and said so.
    assert.match(out.notice ?? "", /no summary for PMID 5; summaries for PMID 5683731, which were not asked for/);
  });
});

Deno.test("citing articles and references are read from their link names", async () => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const cited = dataOf<RelOut>(
      await call("getArticleRelationships", {
        sourcePmid: "9298984",
        relationshipType: "pubmed_citedin",
        maxRelatedResults: 50,
      }),
    );
    const refs = dataOf<RelOut>(
      await call("getArticleRelationships", { sourcePmid: "9298984", relationshipType: "pubmed_references" }),
    );
    const [c, r] = callsTo(requests, "elink").map((q) => q.url.searchParams.get("linkname"));
    assert.deepEqual([c, r], ["pubmed_pubmed_citedin", "pubmed_pubmed_refs"]);
    assert.ok(cited.retrievedCount > 0 && cited.relatedArticles.every((a) => a.score === undefined));
    assert.ok(refs.retrievedCount > 0 && refs.retrievedCount <= 5);
    assert.notDeepEqual(cited.relatedArticles.map((a) => a.pmid), refs.relatedArticles.map((a) => a.pmid));
  });
});

Deno.test("an article without links gets an empty list and a notice, and no ESummary call", async () => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const out = dataOf<RelOut>(
      await call("getArticleRelationships", { sourcePmid: "34843274", relationshipType: "pubmed_references" }),
    );
    assert.deepEqual(out.relatedArticles, []);
    assert.match(out.notice!, /PubMed links no references to PMID 34843274/);
    assert.equal(callsTo(requests, "esummary").length, 0);
  });
});

Deno.test("citation_formats formats the fetched article in each requested style", async () => {
  await withSession([mockRoutes()], async ({ call, requests }) => {
    const out = dataOf<RelOut>(
      await call("getArticleRelationships", {
        sourcePmid: "34843274",
        relationshipType: "citation_formats",
        citationStyles: ["ris", "bibtex", "apa_string", "mla_string", "ris"],
      }),
    );
    assert.deepEqual(Object.keys(out.citations), ["ris", "bibtex", "apa_string", "mla_string"]);
    assert.match(out.citations.ris, /^TY {2}- JOUR\n/);
    assert.match(out.citations.bibtex, /^@article\{Guideline2022_34843274,/);
    assert.match(out.citations.apa_string, /\(2022\)\. Summary of the clinical practice guideline/);
    assert.match(out.citations.mla_string, /vol\. 77, no\. 6, Sept\. 2022, pp\. 770–80, https:/);
    assert.equal(callsTo(requests, "efetch").length, 1);
    assert.match(out.eFetchUrl!, /efetch\.fcgi\?db=pubmed&id=34843274/);
  });
});

Deno.test("citation_formats answers ENTITY_NOT_FOUND for an unknown PMID", async () => {
  await withSession([mockRoutes()], async ({ call }) => {
    const error = errorOf(
      await call("getArticleRelationships", { sourcePmid: "99999999", relationshipType: "citation_formats" }),
    );
    assert.equal(error.code, "ENTITY_NOT_FOUND");
  });
});

Deno.test("an ELink answer about another PMID is an UPSTREAM_ERROR, not its links shown as the source's", async () => {
  // The recorded neighbor_score answer is about 9298984; here it answers a request for 12242737.
  const routes = eutils({ elink: () => fixtureXml("ncbi/eutils/biopython__elink1_2008_scores.xml") });
  await withSession([routes], async ({ call, requests }) => {
    const error = errorOf(await call("getArticleRelationships", { sourcePmid: "12242737" }));
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.equal(error.message, "NCBI ELink answered for id 9298984, not for 12242737.");
    assert.equal(callsTo(requests, "esummary").length, 0);
  });
});

Deno.test("an id ELink rejects is ENTITY_NOT_FOUND naming sourcePmid and searchPubMedArticles", async () => {
  const invalidUid = eutils({
    elink: () => xml("<eLinkResult><ERROR>Invalid uid 0 at position 0</ERROR></eLinkResult>"),
  });
  await withSession([invalidUid], async ({ call }) => {
    const error = errorOf(await call("getArticleRelationships", { sourcePmid: "1" }));
    assert.equal(error.code, "ENTITY_NOT_FOUND");
    assert.match(error.message, /PMID 1 .*Invalid uid/);
    assert.match(error.recovery_hint, /searchPubMedArticles/);
    assert.deepEqual(error.invalid_input, { field: "sourcePmid", value: "1" });
  });
});

Deno.test("getArticleRelationships rejects bad input and reports an ELink outage", async () => {
  await withSession([eutils({ elink: () => new Response("down", { status: 503 }) })], async ({ call, requests }) => {
    for (
      const args of [{ sourcePmid: "abc" }, { sourcePmid: "1", maxRelatedResults: 51 }, {
        sourcePmid: "1",
        relationshipType: "cites",
      }, { sourcePmid: "1", citationStyles: ["chicago"] }]
    ) {
      assert.equal(errorOf(await call("getArticleRelationships", args)).code, "INVALID_INPUT", JSON.stringify(args));
    }
    assert.equal(requests.length, 0);
    assert.equal(errorOf(await call("getArticleRelationships", { sourcePmid: "1" })).code, "UPSTREAM_ERROR");
  });
});
