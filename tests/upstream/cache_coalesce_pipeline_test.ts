import assert from "node:assert/strict";
import { UpstreamError } from "../../src/core/errors.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const efetch = { upstream: "ncbi-eutils" as const, path: "/efetch.fcgi", query: { db: "pubmed", id: "1" } };

Deno.test("a repeated request is served from the cache, marked fromCache, without a second fetch", async () => {
  const h = harness(() => text("<PubmedArticleSet/>"));
  const first = await drive(h.clock, h.upstream.request(efetch));
  const second = await drive(h.clock, h.upstream.request(efetch));
  assert.equal(h.hits.length, 1);
  assert.equal(first.fromCache, false);
  assert.equal(second.fromCache, true);
  assert.equal(second.text(), "<PubmedArticleSet/>");
  assert.equal(second.url, first.url);
});

Deno.test("a cache hit does not wait for a permit (arXiv spacing is 3 s)", async () => {
  const h = harness(() => text("<feed/>"));
  const req = { upstream: "arxiv-api" as const, path: "/query", query: { id_list: "2101.00001" } };
  await drive(h.clock, h.upstream.request(req));
  const hit = await h.upstream.request(req);
  assert.equal(hit.fromCache, true);
  assert.equal(h.clock.now(), 0);
});

Deno.test("cached entries expire after the upstream's TTL", async () => {
  const h = harness(() => text("<feed/>"));
  const req = { upstream: "arxiv-api" as const, path: "/query" };
  await drive(h.clock, h.upstream.request(req));
  await h.clock.advance(15 * 60_000); // arxiv-api TTL: 15 min
  const again = await drive(h.clock, h.upstream.request(req));
  assert.equal(again.fromCache, false);
  assert.equal(h.hits.length, 2);
});

Deno.test("ttlMs overrides the policy TTL per request; ttlMs 0 bypasses the cache", async () => {
  const h = harness(() => text("{}"));
  await drive(h.clock, h.upstream.request({ ...efetch, ttlMs: 0 }));
  await drive(h.clock, h.upstream.request({ ...efetch, ttlMs: 0 }));
  assert.equal(h.hits.length, 2, "ttlMs 0 neither stores nor reads");
  await drive(h.clock, h.upstream.request({ ...efetch, ttlMs: 1000 }));
  await h.clock.advance(1000);
  await drive(h.clock, h.upstream.request(efetch));
  assert.equal(h.hits.length, 4, "the 1 s entry expired");
});

Deno.test("errors are not cached: a 404 followed by a 200 reaches the upstream twice", async () => {
  const h = harness((_, i) => i === 0 ? text("not found", 404) : text("found"));
  const first = await drive(h.clock, outcome(h.upstream.request(efetch)));
  assert.ok(first.error instanceof UpstreamError);
  const second = await drive(h.clock, h.upstream.request(efetch));
  assert.equal(second.text(), "found");
  assert.equal(h.hits.length, 2);
});

Deno.test("the cache key covers method, URL and form body", async () => {
  const h = harness((hit) => text(hit.body || hit.url.search));
  const post = (id: string) => ({ upstream: "ncbi-eutils" as const, path: "/efetch.fcgi", form: { id } });
  await drive(h.clock, h.upstream.request(post("1")));
  await drive(h.clock, h.upstream.request(post("2")));
  await drive(h.clock, h.upstream.request({ ...efetch, query: { db: "pubmed", id: "2" } }));
  assert.equal(h.hits.length, 3);
  assert.equal((await h.upstream.request(post("2"))).fromCache, true);
});

Deno.test("a cached body larger than a later request's maxBytes is refused, not returned", async () => {
  const h = harness(() => text("x".repeat(2000)));
  await drive(h.clock, h.upstream.request(efetch));
  const { error } = await outcome(h.upstream.request({ ...efetch, maxBytes: 1024 }));
  assert.equal((error as UpstreamError).kind, "too_large");
});

Deno.test("10 concurrent identical requests make exactly 1 upstream request", async () => {
  const h = harness(() => text("<eSearchResult/>"));
  const calls = Array.from({ length: 10 }, () => h.upstream.request(efetch));
  const responses = await drive(h.clock, Promise.all(calls));
  assert.equal(h.hits.length, 1);
  assert.ok(responses.every((r) => r.text() === "<eSearchResult/>" && !r.fromCache));
});

Deno.test("one coalesced caller cancelling does not cancel the others", async () => {
  let answer!: (r: Response) => void;
  const h = harness(() => new Promise<Response>((resolve) => (answer = resolve)));
  const quitter = new AbortController();
  const cancelled = outcome(h.upstream.request({ ...efetch, signal: quitter.signal }));
  const others = Array.from(
    { length: 3 },
    () => h.upstream.request({ ...efetch, signal: new AbortController().signal }),
  );
  await h.clock.advance(0);
  quitter.abort(new Error("caller went away"));
  assert.equal((await cancelled).error instanceof UpstreamError, true);
  answer(text("<eSearchResult/>"));
  const responses = await drive(h.clock, Promise.all(others));
  assert.equal(responses.length, 3);
  assert.equal(h.hits.length, 1);
});
