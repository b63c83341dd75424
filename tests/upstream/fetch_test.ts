import assert from "node:assert/strict";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { VERSION } from "../../src/config.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const pubchem = { upstream: "pubchem" as const, path: "/pug/compound/cid/2244/JSON" };

function chunked(chunks: number, size: number): Response {
  let sent = 0;
  return new Response(
    new ReadableStream({
      pull(controller) {
        if (sent++ === chunks) return controller.close();
        controller.enqueue(new Uint8Array(size));
      },
    }),
  );
}

Deno.test("a body over maxBytes fails as too_large while streaming, and is not retried", async () => {
  const h = harness(() => chunked(10, 1000));
  const { error } = await drive(h.clock, outcome(h.upstream.request({ ...pubchem, maxBytes: 4096 })));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "too_large");
  assert.equal(h.hits.length, 1);
  assert.match(error.message, /pubchem\.ncbi\.nlm\.nih\.gov sent more than 4 KiB for https:\/\//);
  assert.equal(toErrorEnvelope(error).code, "PAYLOAD_TOO_LARGE");
});

Deno.test("a declared Content-Length over the cap fails before the body is read", async () => {
  const h = harness(() => new Response("x".repeat(100), { headers: { "content-length": "100" } }));
  const { error } = await drive(h.clock, outcome(h.upstream.request({ ...pubchem, maxBytes: 50 })));
  assert.equal((error as UpstreamError).kind, "too_large");
});

Deno.test("a body exactly at the cap is accepted", async () => {
  const h = harness(() => chunked(4, 1024));
  const response = await drive(h.clock, h.upstream.request({ ...pubchem, maxBytes: 4096 }));
  assert.equal(response.body.byteLength, 4096);
});

Deno.test("an upstream that never answers times out after UPSTREAM_TIMEOUT_MS, per attempt", async () => {
  // This fetch ignores the abort signal entirely: the pipeline must still give up on time.
  const h = harness(() => new Promise<Response>(() => {}), { env: { UPSTREAM_TIMEOUT_MS: "1000" } });
  const { error } = await drive(
    h.clock,
    outcome(h.upstream.request({ upstream: "ncbi-eutils", path: "/efetch.fcgi" })),
    100,
  );
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "timeout");
  assert.equal(h.hits.length, 4, "timeouts are retried (NCBI_MAX_RETRIES default 3)");
  assert.equal(h.hits[1].at - h.hits[0].at, 1000 + 500, "timeout, then jittered back-off");
  assert.match(error.message, /did not answer within 1 s \(4 times\).*UPSTREAM_TIMEOUT_MS/);
});

Deno.test("a body that trickles past the timeout times out too", async () => {
  const h = harness(
    () => new Response(new ReadableStream({ start: (c) => c.enqueue(new Uint8Array(10)) /* then nothing, ever */ })),
    {
      env: { UPSTREAM_TIMEOUT_MS: "2000", NCBI_MAX_RETRIES: "0" },
    },
  );
  const { error } = await drive(h.clock, outcome(h.upstream.request({ upstream: "ncbi-eutils", path: "/x" })), 500);
  assert.equal((error as UpstreamError).kind, "timeout");
});

Deno.test("redirect 'manual' hands a 3xx back as a response instead of following or failing", async () => {
  const h = harness(() => new Response(null, { status: 302, headers: { location: "https://elsewhere.test/pdf" } }));
  const response = await drive(
    h.clock,
    h.upstream.request({ upstream: "publisher", url: "https://doi.example/10.1/x", redirect: "manual" }),
  );
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("location"), "https://elsewhere.test/pdf");
  assert.equal(h.hits.length, 1);
});

Deno.test("without redirect 'manual' an unfollowed 3xx is an error", async () => {
  const h = harness(() => new Response(null, { status: 304 }));
  const { error } = await drive(h.clock, outcome(h.upstream.request({ upstream: "openalex", path: "/works" })));
  assert.equal((error as UpstreamError).status, 304);
});

Deno.test("the caller's AbortSignal cancels a queued request and a request on the wire", async (t) => {
  await t.step("while queued behind the arXiv spacing", async () => {
    const h = harness(() => text("<feed/>"));
    await drive(h.clock, h.upstream.request({ upstream: "arxiv-api", path: "/query", query: { q: "1" } }));
    const controller = new AbortController();
    const queued = outcome(h.upstream.request({ upstream: "arxiv-api", path: "/query", signal: controller.signal }));
    await h.clock.advance(100);
    assert.equal(h.upstream.status()["arxiv-api"].queueLength, 1);
    controller.abort(new Error("user cancelled"));
    const { error } = await queued;
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.kind, "aborted");
    assert.equal(h.upstream.status()["arxiv-api"].queueLength, 0);
    assert.equal(h.hits.length, 1);
  });
  await t.step("while the fetch is running", async () => {
    const h = harness(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const running = outcome(h.upstream.request({ upstream: "openalex", path: "/works", signal: controller.signal }));
    await h.clock.advance(10);
    controller.abort(new Error("user cancelled"));
    const { error } = await running;
    assert.equal((error as UpstreamError).kind, "aborted");
    assert.equal(h.hits.length, 1, "an abort is not retried");
  });
});

Deno.test("requests carry a real User-Agent naming the version and, when configured, a contact", async () => {
  const h = harness(() => text("ok"), { env: { NCBI_ADMIN_EMAIL: "admin@example.org" } });
  await drive(h.clock, h.upstream.request({ upstream: "arxiv-web", path: "/abs/1234.5678" }));
  assert.equal(
    h.hits[0].headers.get("user-agent"),
    `science-mcp/${VERSION} (+https://github.com/science-mcp/science-mcp; mailto:admin@example.org)`,
  );
});

Deno.test("POST sends the form and the NCBI credentials in the body, none in the URL", async () => {
  const h = harness(() => text("<eSummaryResult/>"), {
    env: { NCBI_API_KEY: "key1234567", NCBI_ADMIN_EMAIL: "admin@example.org" },
  });
  await drive(
    h.clock,
    h.upstream.request({ upstream: "ncbi-eutils", path: "/esummary.fcgi", form: { db: "gene", id: "1,2" } }),
  );
  const hit = h.hits[0];
  assert.equal(hit.method, "POST");
  assert.equal(hit.url.search, "");
  assert.equal(hit.headers.get("content-type"), "application/x-www-form-urlencoded");
  const form = new URLSearchParams(hit.body);
  assert.equal(form.get("db"), "gene");
  assert.equal(form.get("id"), "1,2");
  assert.equal(form.get("api_key"), "key1234567");
  assert.equal(form.get("email"), "admin@example.org");
  assert.equal(form.get("tool"), `science-mcp/${VERSION}`);
});

Deno.test("GET adds NCBI and OpenAlex credentials to the query, each only to its own upstream", async () => {
  const h = harness(() => text("{}"), {
    env: { NCBI_API_KEY: "ncbikey123", OPENALEX_API_KEY: "oakey12345", OPENALEX_MAILTO: "me@example.org" },
  });
  await drive(h.clock, h.upstream.request({ upstream: "ncbi-eutils", path: "/esearch.fcgi", query: { term: "x" } }));
  await drive(h.clock, h.upstream.request({ upstream: "openalex", path: "/works", query: { search: "y" } }));
  await drive(h.clock, h.upstream.request({ upstream: "arxiv-api", path: "/query" }));
  const [ncbi, openalex, arxiv] = h.hits.map((x) => x.url.searchParams);
  assert.equal(ncbi.get("api_key"), "ncbikey123");
  assert.equal(ncbi.get("term"), "x");
  assert.equal(openalex.get("api_key"), "oakey12345");
  assert.equal(openalex.get("mailto"), "me@example.org");
  assert.equal(openalex.get("tool"), null);
  assert.equal([...arxiv.keys()].length, 0);
});

Deno.test("a permission refusal fails at once with NOT_AVAILABLE naming the host: no retry can help", async () => {
  const h = harness(() => {
    throw new TypeError("error sending request", {
      cause: new Deno.errors.NotCapable('Requires net access to "eutils.ncbi.nlm.nih.gov:443"'),
    });
  });
  const request = { upstream: "ncbi-eutils" as const, path: "/esearch.fcgi", query: { term: "x" } };
  const error = await drive(h.clock, h.upstream.request(request).catch((e) => e));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "permission");
  assert.equal(h.hits.length, 1);
  const envelope = toErrorEnvelope(error);
  assert.equal(envelope.code, "NOT_AVAILABLE");
  assert.match(envelope.message, /eutils\.ncbi\.nlm\.nih\.gov/);
  assert.match(envelope.recovery_hint, /--allow-net/);
});

Deno.test("each upstream has its own body cap below UPSTREAM_MAX_BYTES: a 9 MB arXiv page is refused unparsed", async () => {
  const h = harness(() => chunked(9 * 16, 64 * 1024));
  const request = { upstream: "arxiv-api" as const, path: "/api/query", query: { search_query: "all:x" } };
  const { error } = await drive(h.clock, outcome(h.upstream.request(request)));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "too_large");
  assert.match(error.message, /sent more than 8 MiB/);
});
