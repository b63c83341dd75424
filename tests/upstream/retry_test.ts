import assert from "node:assert/strict";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const esearch = (term: string) => ({ upstream: "ncbi-eutils" as const, path: "/esearch.fcgi", query: { term } });

Deno.test("a 429 cools the whole upstream down and the retry queues behind requests already waiting", async () => {
  let throttled = false;
  const h = harness((hit) => {
    if (hit.url.searchParams.get("term") === "a" && !throttled) {
      throttled = true;
      return text("Too Many Requests", 429);
    }
    return text("<eSearchResult/>");
  }, { env: { NCBI_REQUEST_DELAY_MS: "334" } });
  const calls = ["a", "b", "c"].map((t) => h.upstream.request(esearch(t)));
  await drive(h.clock, Promise.all(calls));
  // a@0 is throttled → cool-down of 1 s (no Retry-After): b and c wait it out, then the retry of a comes last.
  assert.deepEqual(
    h.hits.map((x) => `${x.url.searchParams.get("term")}@${x.at}`),
    ["a@0", "b@1000", "c@1334", "a@1668"],
  );
});

Deno.test("Retry-After on a 429 sets the cool-down length", async () => {
  const h = harness((_, i) => i === 0 ? text("", 429, { "retry-after": "2" }) : text("ok"));
  const response = await drive(h.clock, h.upstream.request(esearch("x")));
  assert.equal(response.status, 200);
  assert.deepEqual(h.hits.map((x) => x.at), [0, 2000]);
});

Deno.test("consecutive throttles grow the cool-down exponentially until a success resets it", async () => {
  const h = harness((_, i) => i < 2 || i === 3 ? text("", 429) : text("ok"));
  await drive(h.clock, h.upstream.request(esearch("x")));
  assert.deepEqual(h.hits.map((x) => x.at), [0, 1000, 3000], "1 s, then 2 s");
  await drive(h.clock, h.upstream.request(esearch("y")));
  assert.deepEqual(h.hits.slice(3).map((x) => x.at - h.hits[3].at), [0, 1000], "streak reset: 1 s again");
});

Deno.test("a 5xx backs this request off with full jitter, then retries with a new permit", async () => {
  const jitter = [0.5, 0.25];
  const h = harness((_, i) => i < 2 ? text("<html>oops</html>", i === 0 ? 500 : 502) : text("ok"), {
    random: () => jitter.shift()!,
  });
  const response = await drive(h.clock, h.upstream.request(esearch("x")));
  assert.equal(response.status, 200);
  // retry 1: 0.5 × min(30 s, 1 s) = 500 ms; retry 2: 0.25 × min(30 s, 2 s) = 500 ms.
  assert.deepEqual(h.hits.map((x) => x.at), [0, 500, 1000]);
});

Deno.test("a 503 with Retry-After cools the upstream down for everyone", async () => {
  const h = harness((hit, i) => i === 0 ? text("busy", 503, { "retry-after": "3" }) : text(hit.url.search), {
    env: { NCBI_REQUEST_DELAY_MS: "334" },
  });
  const calls = [h.upstream.request(esearch("a")), h.upstream.request(esearch("b"))];
  await drive(h.clock, Promise.all(calls));
  assert.deepEqual(h.hits.map((x) => `${x.url.searchParams.get("term")}@${x.at}`), ["a@0", "b@3000", "a@3334"]);
});

Deno.test("giving up after NCBI_MAX_RETRIES says who answered what, how often, and what to do", async () => {
  const h = harness(() => text('{"error":"API rate limit exceeded","count":"4"}', 429, { "retry-after": "2" }), {
    env: { NCBI_MAX_RETRIES: "2" },
  });
  const { error } = await drive(h.clock, outcome(h.upstream.request(esearch("x"))));
  assert.ok(error instanceof UpstreamError);
  assert.equal(h.hits.length, 3, "first attempt + 2 retries");
  assert.equal(
    error.message,
    "eutils.ncbi.nlm.nih.gov answered 429 three times; retry after 2 s or set NCBI_API_KEY for 10 requests/s",
  );
  assert.equal(error.status, 429);
  assert.equal(error.retryAfterMs, 2000);
  assert.equal(toErrorEnvelope(error).code, "RATE_LIMITED");
});

Deno.test("with an API key the NCBI hint does not suggest setting one", async () => {
  const h = harness(() => text("", 429, { "retry-after": "1" }), {
    env: { NCBI_MAX_RETRIES: "0", NCBI_API_KEY: "abcdef123456" },
  });
  const { error } = await drive(h.clock, outcome(h.upstream.request(esearch("x"))));
  assert.equal((error as Error).message, "eutils.ncbi.nlm.nih.gov answered 429 once; retry after 1 s");
});

Deno.test("a 4xx other than 429 is final: one request, the status and body are kept", async () => {
  const h = harness(() => text('{"Fault":{"Code":"PUGREST.BadRequest","Message":"Invalid CID"}}', 400));
  const { error } = await drive(h.clock, outcome(h.upstream.request({ upstream: "pubchem", path: "/pug/x" })));
  assert.ok(error instanceof UpstreamError);
  assert.equal(h.hits.length, 1);
  assert.equal(error.kind, "http");
  assert.equal(error.status, 400);
  assert.match(error.body!, /PUGREST\.BadRequest/);
  assert.match(
    error.message,
    /^pubchem\.ncbi\.nlm\.nih\.gov answered HTTP 400 for https:\/\/\S+\/pug\/x: .*Invalid CID/,
  );
});

Deno.test("network failures are retried and finally reported as kind network", async () => {
  const h = harness(() => Promise.reject(new TypeError("connection reset by peer")), {
    env: { NCBI_MAX_RETRIES: "1" },
  });
  const { error } = await drive(h.clock, outcome(h.upstream.request(esearch("x"))));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "network");
  assert.equal(h.hits.length, 2);
  assert.match(
    error.message,
    /the connection to eutils\.ncbi\.nlm\.nih\.gov failed twice \(last error: connection reset/,
  );
  assert.equal(toErrorEnvelope(error).code, "UPSTREAM_ERROR");
});

Deno.test("a Retry-After beyond the back-off ceiling fails at once, and later calls fail fast while it lasts", async () => {
  const h = harness(() => text("", 429, { "retry-after": "3600" }));
  const first = await drive(h.clock, outcome(h.upstream.request(esearch("a"))));
  assert.equal(h.hits.length, 1, "no point retrying within the hour");
  assert.equal((first.error as UpstreamError).retryAfterMs, 3_600_000);
  const second = await outcome(h.upstream.request(esearch("b")));
  assert.ok(second.error instanceof UpstreamError);
  assert.equal(second.error.kind, "policy");
  assert.match(second.error.message, /cooling down .* retry after 3600 s/);
  assert.equal(toErrorEnvelope(second.error).code, "RATE_LIMITED");
  assert.equal(h.hits.length, 1, "the fast failure never reached the upstream");
});

Deno.test("a PubChem 504 (PUGREST.Timeout) is final: no retry burns the rate budget before the ListKey fallback", async () => {
  const h = harness(() => text('{"Fault":{"Code":"PUGREST.Timeout","Message":"Request timed out"}}', 504));
  const request = { upstream: "pubchem" as const, path: "/pug/compound/fastsimilarity_2d/cid/241/cids/JSON" };
  const error = await drive(h.clock, h.upstream.request(request).catch((e) => e));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.status, 504);
  assert.equal(h.hits.length, 1);
});

Deno.test("a 504 from NCBI is still retried", async () => {
  const h = harness((_, i) => i === 0 ? text("gateway", 504) : text("ok"));
  const response = await drive(h.clock, h.upstream.request(esearch("x")));
  assert.equal(response.status, 200);
  assert.equal(h.hits.length, 2);
});
