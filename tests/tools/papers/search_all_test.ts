/**
 * #37: search_papers over PubMed and over every source at once (merged without duplicates, one cursor), the
 * OpenAlex author filter, and find_author on a recorded OpenAlex /authors answer.
 */
import assert from "node:assert/strict";
import { parseAuthors } from "../../../src/sources/openalex/parse_author.ts";
import { interleaveForTest, paperKeys } from "../../../src/tools/papers/search_all.ts";
import type { Paper } from "../../../src/tools/papers/schemas.ts";
import { pubmedPaper } from "../../../src/tools/papers/search_sources.ts";
import { fixture, type Route } from "../../helpers/runtime.ts";
import { errorOf, papersClient, structured } from "./mock.ts";

interface Search {
  source: string;
  query_sent: string;
  papers: (Paper & { sources?: string[] })[];
  total_count: number;
  next_cursor?: string;
  warnings?: { code: string; message: string }[];
}

// BUILT from real records: W2741809807 as OpenAlex records it (DOI 10.7717/peerj.4375, PMID 29456894,
// PMCID PMC5815332), its PubMed summary with the DOI in upper case; arXiv 2104.12255 in two versions.
const openalexOa: Paper = {
  id: "W2741809807",
  title: "The state of OA",
  authors: ["Heather Piwowar"],
  date: "2018-02-13",
  pdf_url: null,
  doi: "https://doi.org/10.7717/peerj.4375",
  ids: { openalex: "W2741809807", doi: "https://doi.org/10.7717/peerj.4375", pmid: "29456894" },
  cited_by_count: 1000,
};
const pubmedOa = pubmedPaper({
  pmid: "29456894",
  title: "The state of OA",
  authors: ["Piwowar H"],
  source: "PeerJ",
  doi: "10.7717/PEERJ.4375",
});
const arxivV1: Paper = {
  id: "2104.12255v1",
  title: "A preprint",
  authors: ["A"],
  date: "2021-04-25",
  pdf_url: "https://arxiv.org/pdf/2104.12255v1",
  ids: { arxiv: "2104.12255" },
};
const openalexArxivV2: Paper = {
  id: "W3",
  title: "A preprint",
  authors: ["A"],
  date: "2021-04-26",
  pdf_url: null,
  ids: { openalex: "W3", arxiv: "arXiv:2104.12255v2" },
};
const europePmcWithPmcid: Paper = {
  id: "MED:29456894",
  title: "The state of OA",
  authors: ["Piwowar H"],
  date: "2018-02-13",
  pdf_url: null,
  ids: { pmid: "29456894", pmcid: "PMC5815332" },
};
const openalexPmcidOnly: Paper = {
  id: "W5",
  title: "The state of OA",
  authors: ["Piwowar H"],
  date: "2018",
  pdf_url: null,
  ids: { openalex: "W5", pmcid: "pmc5815332" },
};

Deno.test("the same work from two sources is one hit: DOI in another case, arXiv v1 and v2, PMID and its PMCID", () => {
  const merged = interleaveForTest({
    pubmed: [pubmedOa],
    europepmc: [europePmcWithPmcid],
    openalex: [openalexOa, openalexArxivV2, openalexPmcidOnly],
    arxiv: [arxivV1],
  }, 10);
  assert.deepEqual(merged.map((p) => p.id), ["29456894", "2104.12255v1"]);
  assert.deepEqual(merged[0].sources, ["pubmed", "europepmc", "openalex"]);
  assert.equal(merged[0].ids?.pmcid, "PMC5815332");
  assert.equal(merged[0].cited_by_count, 1000, "a field the first source lacks comes from another");
  assert.deepEqual(merged[1].sources, ["arxiv", "openalex"]);
  assert.deepEqual(paperKeys(openalexArxivV2), ["arxiv:2104.12255", "id:W3"]);
});

Deno.test("search_papers source=all asks every source, merges, and pages to the end without repeating a paper", async () => {
  const c = await papersClient();
  try {
    const seen = new Set<string>();
    let args: Record<string, unknown> = { query: "malaria vaccine", source: "all", count: 100 };
    let pages = 0;
    let first: Search | undefined;
    for (; pages < 60; pages++) {
      const r = structured<Search>(await c.call("search_papers", args));
      first ??= r;
      for (const p of r.papers) {
        for (const key of paperKeys(p)) {
          assert.ok(!seen.has(key), `page ${pages + 1} repeats ${key}`);
        }
        for (const key of paperKeys(p)) seen.add(key);
      }
      if (!r.next_cursor) break;
      args = { ...args, cursor: r.next_cursor };
    }
    assert.ok(pages < 60, "the walk ends");
    assert.match(first!.query_sent, /pubmed: term=malaria vaccine.*europepmc: .*openalex: .*arxiv: /);
    const sources = new Set(first!.papers.flatMap((p) => p.sources ?? []));
    assert.deepEqual([...sources].sort(), ["arxiv", "europepmc", "openalex", "pubmed"]);
  } finally {
    await c.close();
  }
});

Deno.test("a failing source makes the merged answer partial with one warning; every source failing is UPSTREAM_ERROR", async () => {
  const down = (prefix: string): Route => (req) =>
    req.url.pathname.startsWith(prefix) ? new Response("down", { status: 404 }) : undefined;
  const one = await papersClient({ routes: [down("/europepmc")], env: { NCBI_MAX_RETRIES: "0" } });
  try {
    const r = structured<Search>(await one.call("search_papers", { query: "malaria", source: "all", count: 5 }));
    assert.equal(r.warnings?.filter((w) => w.code === "SourceFailed").length, 1);
    assert.match(r.warnings!.find((w) => w.code === "SourceFailed")!.message, /Europe PMC could not be searched/);
    assert.ok(r.papers.length > 0);
  } finally {
    await one.close();
  }
  const all = await papersClient({
    routes: [down("/europepmc"), down("/openalex"), down("/arxiv-api"), down("/ncbi")],
    env: { NCBI_MAX_RETRIES: "0" },
  });
  try {
    const e = errorOf(await all.call("search_papers", { query: "malaria", source: "all", count: 5 }));
    assert.equal(e.code, "UPSTREAM_ERROR");
    for (const name of ["PubMed", "Europe PMC", "OpenAlex", "arXiv"]) assert.match(e.message, new RegExp(name));
  } finally {
    await all.close();
  }
});

Deno.test("search_papers source=pubmed: ESearch then ESummary, PMIDs as ids; no citation order", async () => {
  const c = await papersClient();
  try {
    const r = structured<Search>(await c.call("search_papers", { query: "cancer", source: "pubmed", count: 5 }));
    assert.equal(r.source, "pubmed");
    assert.equal(r.papers.length, 5);
    assert.ok(r.papers.every((p) => /^\d+$/.test(p.id) && p.ids?.pmid === p.id));
    assert.ok(r.next_cursor);
    const next = structured<Search>(
      await c.call("search_papers", { query: "cancer", source: "pubmed", count: 5, cursor: r.next_cursor }),
    );
    assert.equal(next.papers.filter((p) => r.papers.some((q) => q.id === p.id)).length, 0, "page 2 repeats none");
    const e = errorOf(await c.call("search_papers", { query: "cancer", source: "pubmed", sort: "citations" }));
    assert.equal(e.code, "INVALID_INPUT");
    assert.match(e.recovery_hint, /openalex|europepmc/);
  } finally {
    await c.close();
  }
});

Deno.test("search_papers author= filters OpenAlex works by author id or ORCID; other sources and bad ids are refused", async () => {
  const c = await papersClient();
  try {
    await c.call("search_papers", { source: "openalex", author: "https://openalex.org/a5043579160", sort: "date" });
    const works = c.fetch.requests.map((r) => r.url).filter((u) => u.pathname.endsWith("/works"));
    assert.equal(works.at(-1)!.searchParams.get("filter"), "authorships.author.id:A5043579160");
    assert.equal(works.at(-1)!.searchParams.get("sort"), "publication_date:desc");
    await c.call("search_papers", { source: "openalex", author: "0000-0001-5473-2109", sort: "citations" });
    const last = c.fetch.requests.map((r) => r.url).filter((u) => u.pathname.endsWith("/works")).at(-1)!;
    assert.equal(last.searchParams.get("filter"), "authorships.author.orcid:https://orcid.org/0000-0001-5473-2109");
    const wrong = errorOf(await c.call("search_papers", { source: "arxiv", author: "A5043579160" }));
    assert.equal(wrong.code, "INVALID_INPUT");
    assert.match(wrong.recovery_hint, /source=openalex/);
    const bad = errorOf(await c.call("search_papers", { source: "openalex", author: "Tokuzawa" }));
    assert.match(bad.recovery_hint, /find_author/);
  } finally {
    await c.close();
  }
});

Deno.test("OpenAlex author records: ids, ORCID, last known institutions, counts, h-index and topics", () => {
  const body = JSON.parse(fixture("openalex/phymes__authors_search_tokuzawa_2026.json"));
  const { authors, unreadable } = parseAuthors([...body.results, { id: "https://openalex.org/W1", display_name: "x" }]);
  assert.equal(unreadable, 1, "a result that is not an author is counted, not invented");
  const [a] = authors;
  assert.equal(a.id, "A5043579160");
  assert.equal(a.name, "T. Tokuzawa");
  assert.equal(a.orcid, "0000-0001-5473-2109", "from ids.orcid when orcid is null");
  assert.deepEqual(a.institutions.map((i) => i.name).slice(0, 2), [
    "Kyushu University",
    "National Institutes of Natural Sciences",
  ]);
  assert.equal(a.hIndex, 40);
  assert.equal(a.i10Index, 184);
  assert.equal(a.citedByCount, 6540);
  assert.deepEqual(a.topics[0], { id: "T10346", name: "Magnetic confinement fusion research", works: 379 });
});

Deno.test("find_author over MCP: affiliation narrows by institution ids, the answer names the next call", async () => {
  const c = await papersClient();
  try {
    const r = await c.call("find_author", { name: "Tokuzawa", affiliation: "Kyushu University" });
    const s = structured<{ authors: { id: string; h_index: number }[]; affiliations_matched: string[] }>(r);
    assert.equal(s.authors[0].id, "A5043579160");
    assert.equal(s.authors[0].h_index, 40);
    assert.deepEqual(s.affiliations_matched, ["I135598925: Kyushu University"]);
    const authors = c.fetch.requests.map((q) => q.url).find((u) => u.pathname.endsWith("/authors"))!;
    assert.equal(authors.searchParams.get("filter"), "affiliations.institution.id:I135598925");
    assert.match(r.content![0].text!, /search_papers \{"source":"openalex","author":"A5043579160","sort":"date"\}/);
    const none = errorOf(await c.call("find_author", { name: "Tokuzawa", affiliation: "Nowhere Institute" }));
    assert.equal(none.code, "ENTITY_NOT_FOUND");
    const missing = errorOf(await c.call("find_author", { affiliation: "Kyushu" }));
    assert.equal(missing.code, "INVALID_INPUT");
  } finally {
    await c.close();
  }
});

Deno.test("fetch_top_cited takes an author (A id or ORCID) with or without a topic; neither is refused", async () => {
  const c = await papersClient();
  try {
    const r = structured<{ papers: Paper[]; author_filter: string; concept_used?: unknown }>(
      await c.call("fetch_top_cited", { author: "A5043579160", since: "2000", count: 5 }),
    );
    assert.equal(r.author_filter, "authorships.author.id:A5043579160");
    assert.equal(r.concept_used, undefined);
    assert.ok(r.papers.length > 0);
    const works = c.fetch.requests.map((q) => q.url).filter((u) => u.pathname.endsWith("/works")).at(-1)!;
    assert.equal(
      works.searchParams.get("filter"),
      "authorships.author.id:A5043579160,from_publication_date:2000-01-01",
    );
    assert.equal(works.searchParams.get("sort"), "cited_by_count:desc");
    const none = errorOf(await c.call("fetch_top_cited", { since: "2020" }));
    assert.equal(none.code, "INVALID_INPUT");
    assert.match(none.recovery_hint, /find_author/);
  } finally {
    await c.close();
  }
});
