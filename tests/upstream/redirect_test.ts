/**
 * Redirects of API requests: followed only within the request's own host (a mock on loopback included)
 * or to a host the definition allows and whose addresses are public; a refused redirect is reported
 * without its body, and the page it pointed at is never requested.
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { systemClock } from "../../src/core/clock.ts";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { memoryLogger } from "../../src/core/log.ts";
import type { ResolveDns } from "../../src/upstream/address.ts";
import { createUpstream } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const esearch = { upstream: "ncbi-eutils" as const, path: "/esearch.fcgi", query: { term: "x" } };
const INTERNAL = "SECRET internal admin page: root password hunter2";

function redirect(location: string, status = 302): Response {
  return new Response(`<html><body>Moved to ${location}. ${INTERNAL}</body></html>`, {
    status,
    headers: { location, "content-type": "text/html" },
  });
}

const publicDns: ResolveDns = (_host, type) => Promise.resolve(type === "A" ? ["93.184.216.34"] : []);
const privateDns: ResolveDns = (_host, type) => Promise.resolve(type === "A" ? ["10.0.0.7"] : []);

Deno.test("a redirect from an API host to a loopback or private address is refused without quoting anything", async (t) => {
  for (
    const target of ["http://127.0.0.1:8080/admin", "http://10.0.0.1/", "http://[::1]/", "http://169.254.169.254/"]
  ) {
    await t.step(target, async () => {
      const h = harness((hit) => hit.url.hostname === "eutils.ncbi.nlm.nih.gov" ? redirect(target) : text(INTERNAL));
      const { error } = await drive(h.clock, outcome(h.upstream.request(esearch)));
      assert.ok(error instanceof UpstreamError);
      assert.equal(error.kind, "redirect");
      assert.equal(h.hits.length, 1, "the internal page is never requested");
      assert.match(
        error.message,
        /^eutils\.ncbi\.nlm\.nih\.gov redirected to .+, another host, which API requests do not follow/,
      );
      assert.doesNotMatch(error.message + (error.body ?? ""), /SECRET|hunter2|Moved/);
      const envelope = toErrorEnvelope(error, h.upstream.recoveryHint);
      assert.equal(envelope.code, "UPSTREAM_ERROR");
      assert.doesNotMatch(JSON.stringify(envelope), /SECRET|hunter2|API_KEY/);
    });
  }
});

Deno.test("a redirect within the same host is followed, each hop with a new permit; 303 turns a POST into a GET", async () => {
  const h = harness((hit) => {
    if (hit.url.pathname.endsWith("/esearch.fcgi")) return redirect("/entrez/eutils/moved.fcgi?term=x", 303);
    return text(`${hit.method} ${hit.url.pathname} body=${hit.body.length}`);
  }, { env: { NCBI_REQUEST_DELAY_MS: "" } });
  const response = await drive(h.clock, h.upstream.request({ ...esearch, form: { id: "1,2,3" } }), 50);
  assert.equal(response.text(), "GET /entrez/eutils/moved.fcgi body=0");
  assert.deepEqual(h.hits.map((x) => `${x.method}@${x.at}`), ["POST@0", "GET@368"], "paced: 334 ms + 10 %");
  assert.equal(h.hits[1].headers.get("content-type"), null, "no form, no form content type");
  assert.match(response.url, /\/moved\.fcgi\?term=x$/);
});

Deno.test("307 keeps the method and body; http→https on the same host is an upgrade, not another host", async () => {
  const h = harness((hit) => {
    if (hit.url.protocol === "http:") return redirect(hit.url.href.replace("http:", "https:"), 307);
    return text(`${hit.method} ${hit.body}`);
  }, { env: { NCBI_EUTILS_BASE_URL: "http://eutils.ncbi.nlm.nih.gov/entrez/eutils" } });
  const response = await drive(h.clock, h.upstream.request({ ...esearch, form: { id: "7" } }));
  assert.match(response.text(), /^POST id=7/);
  assert.deepEqual(h.hits.map((x) => x.url.protocol), ["http:", "https:"]);
});

Deno.test("a base URL on loopback (the mock) works; its redirects stay on its host and port", async () => {
  const base = "http://127.0.0.1:4010/ncbi";
  const h = harness((hit) => {
    if (hit.url.pathname === "/ncbi/esearch.fcgi") return redirect("/ncbi/other.fcgi");
    if (hit.url.pathname === "/ncbi/other.fcgi") return redirect("http://127.0.0.1:22/");
    return text(INTERNAL);
  }, { env: { NCBI_EUTILS_BASE_URL: base } });
  const { error } = await drive(h.clock, outcome(h.upstream.request(esearch)));
  assert.deepEqual(h.hits.map((x) => x.url.host + x.url.pathname), [
    "127.0.0.1:4010/ncbi/esearch.fcgi",
    "127.0.0.1:4010/ncbi/other.fcgi",
  ]);
  assert.ok(error instanceof UpstreamError);
  assert.match(error.message, /127\.0\.0\.1:4010 redirected to 127\.0\.0\.1:22, another host/);
});

Deno.test("a host on the definition's allow-list is followed only when its addresses are public", async () => {
  const request = { upstream: "arxiv-web" as const, url: "https://ar5iv.org/abs/1706.03762" };
  const answer = (hit: { url: URL }) =>
    hit.url.hostname === "ar5iv.org"
      ? redirect("https://ar5iv.labs.arxiv.org/html/1706.03762")
      : text("<html>paper</html>");
  const ok = harness(answer, { resolveDns: publicDns });
  const response = await drive(ok.clock, ok.upstream.request(request));
  assert.equal(response.text(), "<html>paper</html>");
  assert.equal(response.url, "https://ar5iv.labs.arxiv.org/html/1706.03762");

  const rebound = harness(answer, { resolveDns: privateDns });
  const { error } = await drive(rebound.clock, outcome(rebound.upstream.request(request)));
  assert.ok(error instanceof UpstreamError);
  assert.match(
    error.message,
    /redirected to ar5iv\.labs\.arxiv\.org, which is not followed: .*10\.0\.0\.7\) is a private address/,
  );
  assert.equal(rebound.hits.length, 1);
});

Deno.test("a chain public → public → loopback or private is refused at the later hop, which is never requested", async (t) => {
  const request = { upstream: "arxiv-web" as const, url: "https://ar5iv.org/abs/1706.03762" };
  const answer = (hit: { url: URL }) =>
    hit.url.hostname === "ar5iv.org"
      ? redirect("https://ar5iv.labs.arxiv.org/html/1706.03762")
      : hit.url.hostname === "ar5iv.labs.arxiv.org"
      ? redirect("https://arxiv.org/abs/1706.03762")
      : text(INTERNAL);
  for (const [label, address] of [["loopback", "127.0.0.1"], ["private", "192.168.1.20"]]) {
    await t.step(label, async () => {
      // The first hop's host is public; the second hop's host resolves inward (a rebinding DNS answer).
      const resolveDns: ResolveDns = (host, type) =>
        Promise.resolve(type !== "A" ? [] : host === "arxiv.org" ? [address] : ["93.184.216.34"]);
      const h = harness(answer, { resolveDns });
      const { error } = await drive(h.clock, outcome(h.upstream.request(request)));
      assert.ok(error instanceof UpstreamError);
      assert.equal(error.kind, "redirect");
      assert.deepEqual(h.hits.map((x) => x.url.hostname), ["ar5iv.org", "ar5iv.labs.arxiv.org"]);
      assert.match(
        error.message,
        new RegExp(`redirected to arxiv\\.org, which is not followed: .*${address.replaceAll(".", "\\.")}`),
      );
      assert.doesNotMatch(error.message + (error.body ?? ""), /SECRET|hunter2/);
    });
  }
});

Deno.test("a redirect loop ends after five hops; a redirect without a Location is an error", async () => {
  const h = harness((hit) => redirect(`/entrez/eutils/hop${Number(hit.url.pathname.match(/\d+/)?.[0] ?? 0) + 1}`));
  const { error } = await drive(h.clock, outcome(h.upstream.request(esearch)));
  assert.ok(error instanceof UpstreamError);
  assert.match(error.message, /redirected more than 5 times/);
  assert.equal(h.hits.length, 6);
  const bare = harness(() => new Response("moved", { status: 301 }));
  const missing = await drive(bare.clock, outcome(bare.upstream.request(esearch)));
  assert.match((missing.error as Error).message, /answered HTTP 301 without a Location/);
});

Deno.test("manual redirects (publisher links) still come back as they are", async () => {
  const h = harness(() => redirect("http://127.0.0.1/"));
  const response = await drive(
    h.clock,
    h.upstream.request({ upstream: "publisher", url: "https://doi.example/x", redirect: "manual" }),
  );
  assert.equal(response.status, 302);
  assert.equal(h.hits.length, 1);
});

Deno.test("over real HTTP: the mock redirects to an internal server, which never sees a request", async () => {
  const internalHits: string[] = [];
  const internal = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    internalHits.push(request.url);
    return new Response(INTERNAL);
  });
  const mock = await startMockUpstream({
    rates: false,
    onlyRoutes: true,
    routes: [{
      prefix: "ncbi",
      name: "bounce",
      handle: () => redirect(`http://127.0.0.1:${internal.addr.port}/admin`),
    }],
  });
  try {
    const upstream = createUpstream({
      fetch: (request) => fetch(request),
      clock: systemClock,
      config: testConfig(mock.env),
      log: memoryLogger(),
    });
    const error = await upstream.request(esearch).catch((e) => e);
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.kind, "redirect");
    assert.doesNotMatch(error.message, /SECRET|hunter2/);
    assert.deepEqual(internalHits, []);
  } finally {
    await mock.close();
    await internal.shutdown();
  }
});
