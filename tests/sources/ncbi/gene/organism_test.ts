import assert from "node:assert/strict";
import { ToolError } from "../../../../src/core/errors.ts";
import { organismNotApplied, resolveOrganism } from "../../../../src/sources/ncbi/gene/organism.ts";
import { KNOWN_ORGANISMS, knownOrganism } from "../../../../src/sources/ncbi/gene/organisms.ts";
import { testRuntime } from "../../../helpers/runtime.ts";
import { geneFetch, paramsOf } from "../../../tools/gene/gene_mock.ts";

function setup() {
  const fetch = geneFetch();
  return { fetch, upstream: testRuntime({ fetch }).upstream };
}

const isUnknownOrganism = (e: unknown) =>
  e instanceof ToolError && e.code === "INVALID_INPUT" && /'organism'/.test(e.message) &&
  /common name .*scientific name .*NCBITaxon:9606/.test(e.recoveryHint) &&
  (e.invalidInput as { field: string }).field === "organism";

Deno.test("common names, scientific names and taxon ids in the table resolve without a request", async () => {
  const { fetch, upstream } = setup();
  const cases: [string, string][] = [
    ["human", "9606"],
    ["Human", "9606"],
    ["Homo sapiens", "9606"],
    ["  homo   SAPIENS ", "9606"],
    ["9606", "9606"],
    ["NCBITaxon:9606", "9606"],
    ["mouse", "10090"],
    ["rat", "10116"],
    ["zebrafish", "7955"],
    ["fly", "7227"],
    ["worm", "6239"],
    ["yeast", "4932"],
    ["chicken", "9031"],
    ["frog", "8353"],
    ["dog", "9615"],
    ["cow", "9913"],
    ["pig", "9823"],
    ["arabidopsis", "3702"],
    ["E. coli", "562"],
  ];
  for (const [input, taxon] of cases) {
    assert.deepEqual(
      await resolveOrganism(upstream, input),
      { taxonId: taxon, filter: `txid${taxon}[Organism:exp]` },
      input,
    );
  }
  assert.equal(fetch.requests.length, 0);
});

Deno.test("the organism table has unique names and numeric taxon ids", () => {
  const names = KNOWN_ORGANISMS.flatMap((o) => [o.scientificName.toLowerCase(), ...o.names]);
  assert.equal(new Set(names).size, names.length);
  for (const o of KNOWN_ORGANISMS) {
    assert.match(o.taxonId, /^\d+$/);
    assert.equal(knownOrganism(o.scientificName), o);
  }
  assert.ok(KNOWN_ORGANISMS.length >= 30);
});

Deno.test("another scientific name is checked once against NCBI Taxonomy (ESearch, All Names)", async () => {
  const { fetch, upstream } = setup();
  const resolved = await resolveOrganism(upstream, "Ornithorhynchus anatinus");
  assert.deepEqual(resolved, { taxonId: "9258", filter: "txid9258[Organism:exp]" });
  const [params] = paramsOf(fetch.requests, "/esearch.fcgi");
  assert.equal(params.get("db"), "taxonomy");
  assert.equal(params.get("term"), '"Ornithorhynchus anatinus"[All Names]');
  assert.equal(params.get("retmax"), "1");
});

Deno.test("an organism NCBI Taxonomy does not know is INVALID_INPUT naming the accepted forms", async () => {
  const { upstream } = setup();
  await assert.rejects(resolveOrganism(upstream, "Martian dragon"), isUnknownOrganism);
});

Deno.test("a taxon id outside the table is checked with ESummary db=taxonomy", async () => {
  const { fetch, upstream } = setup();
  assert.deepEqual(await resolveOrganism(upstream, "NCBITaxon:9685"), {
    taxonId: "9685",
    filter: "txid9685[Organism:exp]",
  });
  const [params] = paramsOf(fetch.requests, "/esummary.fcgi");
  assert.equal(params.get("db"), "taxonomy");
  assert.equal(params.get("id"), "9685");
  await assert.rejects(resolveOrganism(upstream, "999999999"), isUnknownOrganism);
});

Deno.test("a taxon check NCBI fails (fatal ESummary <ERROR>) is UPSTREAM_ERROR, not an unknown organism", async () => {
  const fatal = () => new Response("<eSummaryResult><ERROR>Database is not supported</ERROR></eSummaryResult>");
  const upstream = testRuntime({ fetch: geneFetch(fatal) }).upstream;
  await assert.rejects(
    resolveOrganism(upstream, "999999999"),
    (e) => e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /Database is not supported/.test(e.message),
  );
});

Deno.test("organism text that could change the Entrez query is refused before any request", async () => {
  const { fetch, upstream } = setup();
  for (const bad of ['human"[Organism] OR "mouse', "human) OR (mouse", "txid[9606]", "NCBITaxon:abc"]) {
    await assert.rejects(resolveOrganism(upstream, bad), isUnknownOrganism, bad);
  }
  assert.equal(fetch.requests.length, 0);
});

Deno.test("organismNotApplied catches an organism filter the gene ESearch dropped", () => {
  assert.equal(organismNotApplied("x", ["OutputMessage: No items found."]), undefined);
  const error = organismNotApplied("x", ["PhraseNotFound: txid123456789[Organism:exp]"]);
  assert.ok(isUnknownOrganism(error));
});
