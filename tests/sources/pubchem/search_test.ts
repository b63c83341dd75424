import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { TTL } from "../../../src/sources/pubchem/client.ts";
import {
  formulaSearch,
  MAX_POLLS,
  POLL_INTERVAL_MS,
  similaritySearch,
  structureSearch,
} from "../../../src/sources/pubchem/search.ts";
import { type Answer, fakeContext, fakeUpstream, instantClock, pubchemFixture } from "./fakes.ts";

const fixture = (name: string, status = 200): Answer => ({ status, body: pubchemFixture(name) });

Deno.test("structureSearch uses the synchronous fast search with the query in a POST body", async () => {
  const upstream = fakeUpstream(() => fixture("built__fastsubstructure_cids_benzoic_acid.json"));
  const cids = await structureSearch(fakeContext(upstream), {
    searchType: "substructure",
    queryType: "smiles",
    query: "C1=CC=C(C=C1)C(=O)O",
    maxRecords: 2,
  });
  assert.deepEqual(cids, [243, 338]);
  const req = upstream.requests[0];
  assert.equal(req.path, "/pug/compound/fastsubstructure/smiles/cids/JSON");
  assert.equal(req.method, "POST");
  assert.deepEqual(req.form, { smiles: "C1=CC=C(C=C1)C(=O)O" });
  assert.deepEqual(req.query, { MaxRecords: 2 });
  assert.equal(req.ttlMs, TTL.search);
});

Deno.test("similaritySearch by CID puts the CID in the path with Threshold and MaxRecords", async () => {
  const upstream = fakeUpstream(() => fixture("built__fastsimilarity_2d_cids_2244.json"));
  await similaritySearch(fakeContext(upstream), { queryType: "cid", query: "2244", threshold: 95, maxRecords: 10 });
  assert.equal(upstream.requests[0].path, "/pug/compound/fastsimilarity_2d/cid/2244/cids/JSON");
  assert.deepEqual(upstream.requests[0].query, { Threshold: 95, MaxRecords: 10 });
});

Deno.test("formulaSearch sends AllowOtherElements and MaxRecords", async () => {
  const upstream = fakeUpstream(() => fixture("built__fastformula_cids_C9H8O4.json"));
  const cids = await formulaSearch(fakeContext(upstream), {
    formula: "C9H8O4",
    allowOtherElements: false,
    maxRecords: 50,
  });
  assert.deepEqual(cids, [2244, 689043]);
  assert.equal(upstream.requests[0].path, "/pug/compound/fastformula/C9H8O4/cids/JSON");
  assert.deepEqual(upstream.requests[0].query, { AllowOtherElements: false, MaxRecords: 50 });
});

Deno.test("a PUGREST.Timeout switches to the asynchronous ListKey search and polls it", async (t) => {
  let polls = 0;
  const upstream = fakeUpstream((req) => {
    if (req.path === "/pug/compound/fastsimilarity_2d/smiles/cids/JSON") {
      return fixture("built__fault_timeout.json", 504);
    }
    if (req.path === "/pug/compound/similarity/smiles/cids/JSON") return fixture("built__waiting_listkey.json", 202);
    if (req.path === "/pug/compound/listkey/3318153796219856547/cids/JSON") {
      return ++polls < 3 ? fixture("built__waiting_listkey.json", 202) : fixture("built__listkey_cids.json");
    }
    return undefined;
  });
  const clock = instantClock();
  const ctx = fakeContext(upstream, clock);
  const cids = await similaritySearch(ctx, {
    queryType: "smiles",
    query: "CC(=O)OC1=CC=CC=C1C(=O)O",
    threshold: 90,
    maxRecords: 3,
  });
  await t.step("returns the polled result, cut to maxRecords", () => {
    assert.deepEqual(cids, [2244, 338, 5161]);
  });
  await t.step("submits the same query to the async endpoint, uncached", () => {
    const submit = upstream.requests[1];
    assert.equal(submit.method, "POST");
    assert.deepEqual(submit.form, { smiles: "CC(=O)OC1=CC=CC=C1C(=O)O" });
    assert.deepEqual(submit.query, { Threshold: 90, MaxRecords: 3 });
    assert.equal(submit.ttlMs, 0);
  });
  await t.step("polls through the same upstream, never cached, sleeping on the clock between polls", () => {
    const pollRequests = upstream.requests.slice(2);
    assert.equal(pollRequests.length, 3);
    assert.ok(pollRequests.every((r) => r.ttlMs === 0 && r.upstream === "pubchem"));
    assert.deepEqual(pollRequests[0].query, { listkey_count: 3 });
    assert.deepEqual(clock.sleeps, [POLL_INTERVAL_MS, POLL_INTERVAL_MS, POLL_INTERVAL_MS]);
  });
  await t.step("reports progress on every poll", () => {
    assert.deepEqual(ctx.progressEvents.map((p) => [p.progress, p.total]), [[1, MAX_POLLS], [2, MAX_POLLS], [
      3,
      MAX_POLLS,
    ]]);
    assert.match(ctx.progressEvents[0].message ?? "", /ListKey 3318153796219856547/);
  });
});

Deno.test("a fast search that itself answers Waiting is polled", async () => {
  const upstream = fakeUpstream((req) =>
    req.path?.startsWith("/pug/compound/listkey/")
      ? fixture("built__listkey_cids.json")
      : fixture("built__waiting_listkey.json", 202)
  );
  const cids = await structureSearch(fakeContext(upstream), {
    searchType: "identity",
    queryType: "cid",
    query: "2244",
    maxRecords: 20,
  });
  assert.deepEqual(cids, [2244, 338, 5161, 10745]);
  assert.equal(upstream.requests[0].path, "/pug/compound/fastidentity/cid/2244/cids/JSON");
  assert.equal(upstream.requests.length, 2);
});

Deno.test("a Waiting answer served from the cache is not trusted: the search is asked afresh, uncached", async () => {
  const upstream = fakeUpstream((req) =>
    req.ttlMs === 0
      ? fixture("built__fastsimilarity_2d_cids_2244.json")
      : { ...fixture("built__waiting_listkey.json", 202), fromCache: true }
  );
  const cids = await similaritySearch(fakeContext(upstream), {
    queryType: "cid",
    query: "2244",
    threshold: 90,
    maxRecords: 5,
  });
  assert.deepEqual(cids, [2244, 338, 5161, 10745]);
  assert.deepEqual(upstream.requests.map((r) => [r.path, r.ttlMs]), [
    ["/pug/compound/fastsimilarity_2d/cid/2244/cids/JSON", TTL.search],
    ["/pug/compound/fastsimilarity_2d/cid/2244/cids/JSON", 0],
  ]);
});

Deno.test("a ListKey that never finishes gives UPSTREAM_ERROR after a bounded number of polls", async () => {
  const upstream = fakeUpstream(() => fixture("built__waiting_listkey.json", 202));
  const clock = instantClock();
  await assert.rejects(
    () => formulaSearch(fakeContext(upstream, clock), { formula: "C6H12O6", allowOtherElements: true, maxRecords: 5 }),
    (e) => e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /still running/.test(e.message),
  );
  assert.equal(clock.sleeps.length, MAX_POLLS);
  assert.equal(upstream.requests.length, 1 + MAX_POLLS);
});

Deno.test("cancelling the call stops the polling", async () => {
  const upstream = fakeUpstream(() => fixture("built__waiting_listkey.json", 202));
  const controller = new AbortController();
  const ctx = { ...fakeContext(upstream), signal: controller.signal };
  controller.abort(new Error("cancelled"));
  await assert.rejects(
    () => structureSearch(ctx, { searchType: "substructure", queryType: "cid", query: "2244", maxRecords: 5 }),
    /cancelled/,
  );
  assert.equal(upstream.requests.length, 1);
});

Deno.test("search faults: a bad SMILES is INVALID_INPUT and no hits is ENTITY_NOT_FOUND", async (t) => {
  await t.step("PUGREST.BadRequest on the fast search names 'query'", async () => {
    const upstream = fakeUpstream(() => fixture("built__fault_bad_request_smiles.json", 400));
    await assert.rejects(
      () =>
        structureSearch(fakeContext(upstream), {
          searchType: "substructure",
          queryType: "smiles",
          query: "C1CC(",
          maxRecords: 5,
        }),
      (e) => e instanceof ToolError && e.code === "INVALID_INPUT" && /'query'/.test(e.message),
    );
    assert.equal(upstream.requests.length, 1);
  });
  await t.step("an empty hit list is ENTITY_NOT_FOUND with a hint to relax the search", async () => {
    const upstream = fakeUpstream(() => ({ body: '{"IdentifierList":{"CID":[]}}' }));
    await assert.rejects(
      () => similaritySearch(fakeContext(upstream), { queryType: "cid", query: "2244", threshold: 100, maxRecords: 5 }),
      (e) => e instanceof ToolError && e.code === "ENTITY_NOT_FOUND" && /threshold/.test(e.recoveryHint),
    );
  });
});
