/**
 * The upstream table against everything derived from it: config's base-URL variables, the permission
 * sets of deno.json, and the mock upstream's prefixes, routes and environment lines.
 */
import assert from "node:assert/strict";
import { ALL_ROUTES } from "../../scripts/mock_routes/mod.ts";
import { PREFIX_UPSTREAM, PREFIXES, startMockUpstream } from "../../scripts/mock_upstream.ts";
import { ENV_VARS } from "../../src/config.ts";
import { baseUrlVars, mockPrefixes } from "../../src/upstream/def.ts";
import { upstreamHosts, upstreamPolicies, UPSTREAMS, UPSTREAMS_BY_NAME } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";

const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));

Deno.test("each table key is its definition's name, and names are unique", () => {
  for (const [key, def] of Object.entries(UPSTREAMS_BY_NAME)) assert.equal(def.name, key);
  assert.equal(new Set(UPSTREAMS.map((d) => d.name)).size, UPSTREAMS.length);
});

Deno.test("config reads every base-URL variable of the table, with the table's default", () => {
  const config = testConfig();
  for (const def of UPSTREAMS) {
    for (const [key, variable] of baseUrlVars(def)) {
      const declared = ENV_VARS.find((v) => v.name === variable.env);
      assert.equal(declared?.default, variable.default, variable.env);
      assert.equal(config.baseUrls[key], variable.default, key);
    }
  }
  const moved = testConfig({ PUBCHEM_BASE_URL: "http://127.0.0.1:9/pubchem/" });
  assert.equal(moved.baseUrls.pubchem, "http://127.0.0.1:9/pubchem");
  assert.equal(upstreamPolicies(moved).pubchem.baseUrl, "http://127.0.0.1:9/pubchem");
});

Deno.test("deno.json: the confined permission sets grant exactly the table's hosts", () => {
  const hosts = upstreamHosts().sort();
  const config = testConfig();
  const listen = `${config.http.host}:${config.http.port}`;
  assert.deepEqual([...denoJson.permissions.stdio.net].sort(), hosts);
  assert.deepEqual(denoJson.permissions.http.net.filter((h: string) => h !== listen).sort(), hosts);
  for (const set of ["stdio", "stdio-open", "http", "cli"]) {
    for (const def of UPSTREAMS) {
      for (const [, variable] of baseUrlVars(def)) assert.ok(denoJson.permissions[set].env.includes(variable.env));
    }
  }
});

Deno.test("the mock upstream serves every upstream of the table under its prefixes", async () => {
  const fromTable = UPSTREAMS.flatMap((def) => mockPrefixes(def).map((prefix) => [prefix, def.name]));
  assert.deepEqual([...PREFIXES].sort(), fromTable.map(([prefix]) => prefix).sort());
  for (const [prefix, name] of fromTable) {
    assert.equal(PREFIX_UPSTREAM[prefix as keyof typeof PREFIX_UPSTREAM], name, prefix);
    assert.ok(ALL_ROUTES.some((route) => route.prefix === prefix), `no mock route under /${prefix}`);
  }
  const mock = await startMockUpstream({ rates: false });
  try {
    const expected = Object.fromEntries(
      UPSTREAMS.flatMap((def) => baseUrlVars(def)).map(([, v]) => [v.env, `${mock.url}/${v.mockPrefix}`]),
    );
    assert.deepEqual(mock.env, expected);
  } finally {
    await mock.close();
  }
});

Deno.test("resolved policies: published rates with the default 10 % margin; an explicit NCBI delay is exact", () => {
  const policies = upstreamPolicies(testConfig({ NCBI_REQUEST_DELAY_MS: "" }));
  assert.equal(policies["arxiv-api"].intervalMs, 3000);
  assert.equal(policies["arxiv-api"].marginPct, 10);
  assert.ok(policies.openalex.intervalMs >= 200, "seed 004: at most 5 requests/s to OpenAlex");
  assert.equal(policies["ncbi-eutils"].intervalMs, 334);
  assert.equal(
    upstreamPolicies(testConfig({ NCBI_REQUEST_DELAY_MS: "", NCBI_API_KEY: "k" }))["ncbi-eutils"].intervalMs,
    100,
  );
  const explicit = upstreamPolicies(testConfig({ NCBI_REQUEST_DELAY_MS: "500" }))["ncbi-eutils"];
  assert.deepEqual([explicit.intervalMs, explicit.marginPct], [500, 0]);
});

Deno.test("seed 004: every host the papers toolset reaches is paced at 5 requests/s or its own stricter limit", () => {
  // The upstreams the papers tools' sources call (search, latest, content, citations, exports).
  const papers = [
    "arxiv-api",
    "arxiv-web",
    "openalex",
    "europepmc",
    "crossref",
    "ncbi-idconv",
    "ncbi-eutils",
    "publisher",
  ] as const;
  const policies = upstreamPolicies(testConfig({ NCBI_REQUEST_DELAY_MS: "" }));
  for (const name of papers) {
    const policy = policies[name];
    const spacing = policy.intervalMs * (1 + policy.marginPct / 100);
    assert.ok(spacing >= 200, `${name}: ${Math.round(1000 / spacing * 10) / 10} requests/s`);
  }
  // NCBI with an API key keeps NCBI's published 10/s: the same host serves the PubMed toolset (seed 000).
  const keyed = upstreamPolicies(testConfig({ NCBI_REQUEST_DELAY_MS: "", NCBI_API_KEY: "k" }))["ncbi-eutils"];
  assert.equal(keyed.intervalMs, 100);
});
