import assert from "node:assert/strict";
import {
  fetchGeneRecord,
  fetchGeneSummaries,
  fetchPubmedLinks,
  geneSummaryRequest,
  RECORD_TTL_MS,
  SEARCH_TTL_MS,
  searchGeneIds,
} from "../../../../src/sources/ncbi/gene/client.ts";
import { UpstreamError } from "../../../../src/core/errors.ts";
import { testRuntime } from "../../../helpers/runtime.ts";
import { geneFetch, paramsOf } from "../../../tools/gene/gene_mock.ts";

function setup(env: Record<string, string> = {}) {
  const fetch = geneFetch();
  return { fetch, upstream: testRuntime({ fetch, env }).upstream };
}

Deno.test("searchGeneIds sends ESearch db=gene with the term and the page window", async () => {
  const { fetch, upstream } = setup();
  const result = await searchGeneIds(upstream, {
    term: "(TP53) AND txid9606[Organism:exp] AND alive[prop]",
    offset: 2,
    limit: 3,
  });
  const [request] = fetch.requests;
  assert.equal(request.method, "GET");
  assert.equal(request.url.pathname, "/entrez/eutils/esearch.fcgi");
  const params = request.url.searchParams;
  assert.equal(params.get("db"), "gene");
  assert.equal(params.get("term"), "(TP53) AND txid9606[Organism:exp] AND alive[prop]");
  assert.equal(params.get("retstart"), "2");
  assert.equal(params.get("retmax"), "3");
  assert.equal(params.get("tool"), "science-mcp/0.1.0", "credentials come from the pipeline, not the adapter");
  assert.deepEqual(result.ids, ["7161", "7158", "7159"]);
  assert.equal(result.count, 7);
});

Deno.test("fetchGeneSummaries asks ESummary version 2.0 and returns summaries in id order", async () => {
  const { fetch, upstream } = setup();
  const docs = await fetchGeneSummaries(upstream, ["7157", "999999999", "672"]);
  const [params] = paramsOf(fetch.requests, "/esummary.fcgi");
  assert.equal(params.get("db"), "gene");
  assert.equal(params.get("version"), "2.0");
  assert.equal(params.get("id"), "7157,999999999,672");
  assert.deepEqual(docs.map((d) => d.symbol), ["TP53", "BRCA1"], "the unknown id is dropped");
  assert.deepEqual(await fetchGeneSummaries(upstream, []), []);
  assert.equal(fetch.requests.length, 1, "no request for an empty page");
});

Deno.test("ESummary leaves GET or POST to the upstream's one rule: a long id list goes as a POST form", async () => {
  const ids = Array.from({ length: 250 }, (_, i) => String(100_000 + i));
  const request = geneSummaryRequest(ids);
  assert.equal(request.method, undefined, "the builder never picks a method");
  assert.equal(request.query?.id, ids.join(","));
  assert.equal(request.ttlMs, SEARCH_TTL_MS);
  const { fetch, upstream } = setup();
  await fetchGeneSummaries(upstream, ids);
  await fetchGeneSummaries(upstream, ids.slice(0, 20));
  const [long, short] = fetch.requests.filter((r) => r.url.pathname.endsWith("/esummary.fcgi"));
  assert.equal(long.method, "POST");
  assert.equal(new URLSearchParams(long.body).get("id"), ids.join(","));
  assert.equal(short.method, "GET");
});

Deno.test("fetchGeneRecord sends EFetch db=gene retmode=xml for one id", async () => {
  const { fetch, upstream } = setup();
  const record = await fetchGeneRecord(upstream, "4747");
  const params = fetch.requests[0].url.searchParams;
  assert.equal(fetch.requests[0].url.pathname, "/entrez/eutils/efetch.fcgi");
  assert.deepEqual([params.get("db"), params.get("id"), params.get("retmode")], ["gene", "4747", "xml"]);
  assert.equal(record?.symbol, "NEFL");
  assert.equal(await fetchGeneRecord(upstream, "999999999"), undefined);
});

Deno.test("fetchPubmedLinks sends ELink gene → pubmed (gene_pubmed) and returns every PMID", async () => {
  const { fetch, upstream } = setup();
  const pmids = await fetchPubmedLinks(upstream, "7157");
  const params = fetch.requests[0].url.searchParams;
  assert.equal(fetch.requests[0].url.pathname, "/entrez/eutils/elink.fcgi");
  assert.deepEqual(
    [params.get("dbfrom"), params.get("db"), params.get("linkname"), params.get("id")],
    ["gene", "pubmed", "gene_pubmed", "7157"],
  );
  assert.equal(pmids.length, 6906);
  assert.equal(pmids[0], "25842826");
  assert.deepEqual(await fetchPubmedLinks(upstream, "105694156"), []);
});

Deno.test("gene records, links and search pages are requested with cache lifetimes", async () => {
  const { fetch, upstream } = setup();
  await fetchGeneRecord(upstream, "4747");
  await fetchGeneRecord(upstream, "4747");
  await fetchPubmedLinks(upstream, "4747");
  await fetchPubmedLinks(upstream, "4747");
  await searchGeneIds(upstream, { term: "NEFL", offset: 0, limit: 5 });
  await searchGeneIds(upstream, { term: "NEFL", offset: 0, limit: 5 });
  assert.equal(fetch.requests.length, 3, "each repeated request is served from the cache");
  assert.ok(RECORD_TTL_MS >= SEARCH_TTL_MS);
});

Deno.test("a truncated ELink answer is an upstream parse error, not a shorter list", async () => {
  const { upstream } = testRuntime({
    fetch: geneFetch((r) =>
      r.url.pathname.endsWith("/elink.fcgi")
        ? new Response(
          "<eLinkResult><LinkSet><DbFrom>gene</DbFrom><LinkSetDb><LinkName>gene_pubmed</LinkName><Link><Id>1</Id>",
        )
        : undefined
    ),
    env: { NCBI_MAX_RETRIES: "0" },
  });
  await assert.rejects(
    fetchPubmedLinks(upstream, "7157"),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse" && /incomplete XML/.test(e.message),
  );
});
