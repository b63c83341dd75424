/** Request construction of the PubMed E-utilities client: parameters, GET vs POST, error bodies. */
import assert from "node:assert/strict";
import { ToolError } from "../../../../src/core/errors.ts";
import { eFetch, eInfo, eLink, eSearch, eSummaryByIds } from "../../../../src/sources/ncbi/pubmed/client.ts";
import { scriptedFetch, testRuntime } from "../../../helpers/runtime.ts";
import { mergedParams } from "../../../helpers/mock_routes.ts";
import { eutils, fixtureXml, xml } from "../../../tools/pubmed/eutils_routes.ts";

const EMPTY_SET = "<PubmedArticleSet></PubmedArticleSet>";

function setup(...routes: Parameters<typeof scriptedFetch>) {
  const fetch = scriptedFetch(...routes);
  const runtime = testRuntime({ fetch, env: { NCBI_API_KEY: "secret-key-123", NCBI_MAX_RETRIES: "0" } });
  return { fetch, ctx: { upstream: runtime.upstream, signal: new AbortController().signal }, runtime };
}

Deno.test("eSearch sends the query as typed, with history, sort and date limits", async () => {
  const { fetch, ctx } = setup(eutils({ esearch: () => fixtureXml("ncbi/eutils/biopython__esearch2.xml") }));
  const term = '"heart attack"[Title] AND <b>x</b> & y';
  const result = await eSearch(ctx, {
    term,
    retmax: 7,
    sort: "pub_date",
    datetype: "pdat",
    mindate: "2020",
    maxdate: "3000",
    useHistory: true,
  });
  const [request] = fetch.requests;
  assert.equal(request.method, "GET");
  assert.equal(request.url.pathname, "/entrez/eutils/esearch.fcgi");
  const p = request.url.searchParams;
  assert.equal(p.get("db"), "pubmed");
  assert.equal(p.get("term"), term);
  assert.equal(p.get("retmax"), "7");
  assert.equal(p.get("sort"), "pub_date");
  assert.deepEqual([p.get("datetype"), p.get("mindate"), p.get("maxdate")], ["pdat", "2020", "3000"]);
  assert.equal(p.get("usehistory"), "y");
  assert.equal(p.get("api_key"), "secret-key-123", "the pipeline adds the key");
  assert.doesNotMatch(result.url, /secret-key-123/);
  assert.equal(result.value.webEnv, "MCID_6927d6e7fee3e90f880ec190");
});

Deno.test("eSearch leaves out datetype and usehistory when not needed", async () => {
  const { fetch, ctx } = setup(eutils({ esearch: () => fixtureXml("ncbi/eutils/biopython__esearch1.xml") }));
  await eSearch(ctx, { term: "biopython", retmax: 20, useHistory: false });
  const p = fetch.requests[0].url.searchParams;
  for (const name of ["datetype", "mindate", "maxdate", "usehistory", "sort"]) assert.equal(p.has(name), false, name);
});

Deno.test("eSearch maps an HTTP 400 with an <ERROR> body to INVALID_INPUT with NCBI's message", async () => {
  const { ctx } = setup(eutils({ esearch: () => fixtureXml("ncbi/eutils/eutilsjson__esearch.baderror.xml", 400) }));
  await assert.rejects(
    eSearch(ctx, { term: "x", retmax: 1, useHistory: false }),
    (e: unknown) => e instanceof ToolError && e.code === "INVALID_INPUT" && /Invalid db name specified/.test(e.message),
  );
});

Deno.test("eFetch uses GET while the URL stays within 2000 characters (150 PMIDs)", async () => {
  const { fetch, ctx } = setup(eutils({ efetch: () => xml(EMPTY_SET) }));
  const ids = Array.from({ length: 150 }, (_, i) => String(30000000 + i));
  const result = await eFetch(ctx, ids, "xml");
  const [request] = fetch.requests;
  assert.equal(request.method, "GET");
  assert.equal(result.method, "GET");
  assert.equal(request.url.searchParams.get("id"), ids.join(","));
  assert.equal(request.url.searchParams.get("retmode"), "xml");
});

Deno.test("eFetch switches to a form POST when the id list makes the URL pass 2000 characters", async () => {
  const { fetch, ctx } = setup(eutils({ efetch: () => xml(EMPTY_SET) }));
  const ids = Array.from({ length: 200 }, (_, i) => String(30000000 + i));
  const result = await eFetch(ctx, ids, "xml");
  const [request] = fetch.requests;
  assert.equal(request.method, "POST");
  assert.equal(result.method, "POST");
  assert.equal(request.headers.get("content-type"), "application/x-www-form-urlencoded");
  assert.equal(request.url.search, "");
  const form = new URLSearchParams(request.body);
  assert.equal(form.get("id"), ids.join(","));
  assert.equal(form.get("db"), "pubmed");
  assert.equal(form.get("api_key"), "secret-key-123");
  assert.doesNotMatch(result.url, /secret|id=/);
});

Deno.test("a long query goes as POST even with few ids, since its URL would pass 2000 characters", async () => {
  const { fetch, ctx } = setup(eutils({ esearch: () => fixtureXml("ncbi/eutils/biopython__esearch1.xml") }));
  const term = Array.from({ length: 200 }, (_, i) => `gene${i}[Title]`).join(" OR ");
  await eSearch(ctx, { term, retmax: 5, useHistory: false });
  assert.equal(fetch.requests[0].method, "POST");
  assert.equal(mergedParams(fetch.requests[0]).get("term"), term);
});

Deno.test("eFetch medline asks for rettype=medline as text", async () => {
  const { fetch, ctx } = setup(eutils({ efetch: () => new Response("PMID- 1\n") }));
  await eFetch(ctx, ["1"], "medline");
  const p = fetch.requests[0].url.searchParams;
  assert.deepEqual([p.get("rettype"), p.get("retmode")], ["medline", "text"]);
});

Deno.test("eLink asks neighbor_score for similar articles and a linkname for citations", async () => {
  const { fetch, ctx } = setup(eutils({ elink: () => fixtureXml("ncbi/eutils/biopython__elink1.xml") }));
  await eLink(ctx, "9298984", "similar");
  const cited = await eLink(ctx, "9298984", "citedin");
  const [similar, citedin] = fetch.requests.map((r) => r.url.searchParams);
  assert.deepEqual([similar.get("dbfrom"), similar.get("db"), similar.get("cmd")], [
    "pubmed",
    "pubmed",
    "neighbor_score",
  ]);
  assert.equal(similar.get("linkname"), "pubmed_pubmed");
  assert.equal(citedin.get("cmd"), "neighbor");
  assert.equal(citedin.get("linkname"), "pubmed_pubmed_citedin");
  assert.ok(cited.value.length > 0);
  assert.ok(cited.value.every((l) => /^\d+$/.test(l.id) && l.score === undefined));
});

Deno.test("eSummaryByIds asks version 2.0 for the ids; eInfo asks db=pubmed", async () => {
  const { fetch, ctx } = setup(eutils({
    esummary: () => fixtureXml("ncbi/eutils/eutilsjson__esummary.pubmed.xml"),
    einfo: () => fixtureXml("ncbi/eutils/biopython__einfo2_pubmed.xml"),
  }));
  const summaries = await eSummaryByIds(ctx, ["5683731", "22144687"]);
  const info = await eInfo(ctx);
  const [s, i] = fetch.requests.map((r) => r.url.searchParams);
  assert.deepEqual([s.get("db"), s.get("version"), s.get("id")], ["pubmed", "2.0", "5683731,22144687"]);
  assert.equal(summaries.value.length, 2);
  assert.equal(i.get("db"), "pubmed");
  assert.equal(info.value.count, 39730388);
});
