/**
 * Adding an upstream takes one definition: a fake UpstreamDef handed to the pipeline is paced, cached,
 * coalesced, classified, credentialed and redacted with no other file involved.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { defineUpstream, type PipelineSettings } from "../../src/upstream/def.ts";
import { createPipeline } from "../../src/upstream/fetch_upstream.ts";
import { drive, text, timedFetch } from "./helpers.ts";

interface FakeSettings extends PipelineSettings {
  fake: { token?: string };
}

const fakeDef = defineUpstream<FakeSettings>({
  name: "fake",
  title: "A fake service",
  baseUrl: { env: "FAKE_BASE_URL", default: "https://fake.example/api", description: "Fake", mockPrefix: "fake" },
  hosts: ["fake.example"],
  rate: { intervalMs: 1000 },
  concurrency: 1,
  maxRetries: 2,
  ttlMs: 60_000,
  backoff: { baseMs: 500, maxMs: 10_000 },
  credentials: ({ fake }) => ({ token: fake.token, client: "test" }),
  secretParams: ["token"],
  contact: () => "ops@fake.example",
  detectThrottle: ({ head }) => head.startsWith("SLOW DOWN") ? { throttled: "SLOW DOWN (HTTP 200)" } : {},
  throttleHint: ({ fake }) => fake.token ? "" : " or set FAKE_TOKEN",
  recoveryHint: "Ask the fake service again later.",
  postAboveUrlChars: 200,
});

function fakePipeline(handler: Parameters<typeof timedFetch>[1], token = "sekrit-token") {
  const clock = new ManualClock(0);
  const fetch = timedFetch(clock, handler);
  const settings: FakeSettings = {
    upstreamTimeoutMs: 30_000,
    upstreamMaxBytes: 1_000_000,
    cacheMaxBytes: 1_000_000,
    baseUrls: {},
    fake: { token },
  };
  const upstream = createPipeline({
    fetch,
    clock,
    config: settings,
    log: memoryLogger(),
    upstreams: [fakeDef],
    product: "test-agent/1",
    random: () => 0.5,
  });
  return { clock, upstream, hits: fetch.hits };
}

Deno.test("a fake upstream is paced at its rate plus the margin, with credentials and User-Agent", async () => {
  const f = fakePipeline((hit) => text(`ok ${hit.url.searchParams.get("q")}`));
  const calls = ["a", "b", "c"].map((q) => f.upstream.request({ upstream: "fake", path: "/find", query: { q } }));
  const responses = await drive(f.clock, Promise.all(calls), 100);
  assert.deepEqual(responses.map((r) => r.text()), ["ok a", "ok b", "ok c"]);
  assert.deepEqual(f.hits.map((h) => h.at), [0, 1100, 2200], "1000 ms published + 10 % margin");
  const first = f.hits[0];
  assert.equal(first.url.origin + first.url.pathname, "https://fake.example/api/find");
  assert.equal(first.url.searchParams.get("token"), "sekrit-token");
  assert.equal(first.url.searchParams.get("client"), "test");
  assert.equal(
    first.headers.get("user-agent"),
    "test-agent/1 (+https://github.com/science-mcp/science-mcp; mailto:ops@fake.example)",
  );
  assert.equal(responses[0].url, "https://fake.example/api/find?q=a&token=REDACTED&client=test");
  assert.deepEqual(Object.keys(f.upstream.status()), ["fake"]);
});

Deno.test("a fake upstream's answers are cached for its TTL and identical calls are coalesced", async () => {
  const f = fakePipeline(() => text("body"));
  const request = { upstream: "fake", path: "/item/1" };
  const [a, b] = await drive(f.clock, Promise.all([f.upstream.request(request), f.upstream.request(request)]));
  assert.equal(f.hits.length, 1, "coalesced");
  assert.deepEqual([a.fromCache, b.fromCache], [false, false]);
  assert.equal((await f.upstream.request(request)).fromCache, true);
  await f.clock.advance(60_000);
  await drive(f.clock, f.upstream.request(request));
  assert.equal(f.hits.length, 2, "expired after ttlMs");
});

Deno.test("a fake upstream's own throttle signal cools the queue down, and its hints reach the caller", async () => {
  const f = fakePipeline(() => text("SLOW DOWN please"), "");
  const error = await drive(f.clock, f.upstream.request({ upstream: "fake", path: "/x" }).catch((e) => e), 500);
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.upstream, "fake");
  assert.match(error.message, /fake\.example answered SLOW DOWN \(HTTP 200\) three times; .* or set FAKE_TOKEN$/);
  assert.equal(f.hits.length, 3, "first attempt and maxRetries = 2");
  const envelope = toErrorEnvelope(error, f.upstream.recoveryHint);
  assert.equal(envelope.code, "RATE_LIMITED");
  assert.match(envelope.recovery_hint, /Ask the fake service again later\.$/);
});

Deno.test("a fake upstream's GET/POST rule: a URL past postAboveUrlChars goes as a form POST", async () => {
  const f = fakePipeline(() => text("ok"));
  const ids = Array.from({ length: 40 }, (_, i) => String(1000 + i)).join(",");
  const response = await drive(f.clock, f.upstream.request({ upstream: "fake", path: "/batch", query: { ids } }));
  assert.equal(response.method, "POST");
  const hit = f.hits[0];
  assert.equal(hit.method, "POST");
  assert.equal(hit.url.search, "");
  const form = new URLSearchParams(hit.body);
  assert.equal(form.get("ids"), ids);
  assert.equal(form.get("token"), "sekrit-token");
  const short = await drive(
    f.clock,
    f.upstream.request({ upstream: "fake", path: "/batch", query: { ids: "1" } }),
    100,
  );
  assert.equal(short.method, "GET");
});

Deno.test("a request for an upstream the pipeline was not given fails loudly", () => {
  const f = fakePipeline(() => text("ok"));
  assert.throws(() => f.upstream.describe({ upstream: "ncbi-eutils", path: "/x" }), /unknown upstream 'ncbi-eutils'/);
});
