import assert from "node:assert/strict";
import { UpstreamError } from "../../src/core/errors.ts";
import { UPSTREAMS } from "../../src/upstreams/mod.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const SECRETS = { NCBI_API_KEY: "sekretkey987", NCBI_ADMIN_EMAIL: "admin@example.org" };

Deno.test("describe() gives the URL a request would hit, with the API key and e-mail redacted", () => {
  const h = harness(() => text(""), { env: SECRETS });
  const shown = h.upstream.describe({ upstream: "ncbi-eutils", path: "/esearch.fcgi", query: { term: "BRCA1" } });
  const url = new URL(shown);
  assert.equal(url.origin + url.pathname, "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi");
  assert.equal(url.searchParams.get("term"), "BRCA1");
  assert.equal(url.searchParams.get("api_key"), "REDACTED");
  assert.equal(url.searchParams.get("email"), "REDACTED");
  assert.ok(!shown.includes("sekretkey987"));
});

Deno.test("errors and logs never contain the API key or the e-mail, even when the upstream echoes them", async () => {
  const echo = '{"error":"API rate limit exceeded","api-key":"sekretkey987","count":"11","limit":"10"}';
  const h = harness((_, i) =>
    i < 1 ? text(echo, 500) : Promise.reject(
      new TypeError(
        "error sending request for url (https://eutils.ncbi.nlm.nih.gov/x?api_key=sekretkey987&email=admin%40example.org)",
      ),
    ), { env: { ...SECRETS, NCBI_MAX_RETRIES: "1" } });
  const { error } = await drive(h.clock, outcome(h.upstream.request({ upstream: "ncbi-eutils", path: "/x" })));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "network");
  const everything = JSON.stringify([error.message, error.url, error.body, String(error.cause), h.logs]);
  for (const secret of ["sekretkey987", "admin@example.org", "admin%40example.org"]) {
    assert.ok(!everything.includes(secret), `${secret} leaked`);
  }
  assert.match(error.message, /api_key=REDACTED/);
  assert.ok(h.upstream.status()["ncbi-eutils"].lastError?.includes("REDACTED"));
});

Deno.test("an HTTP error body that echoes the key is redacted", async () => {
  const h = harness(() => text('{"error":"invalid api_key","api-key":"sekretkey987"}', 400), { env: SECRETS });
  const { error } = await drive(h.clock, outcome(h.upstream.request({ upstream: "ncbi-eutils", path: "/x" })));
  const e = error as UpstreamError;
  assert.ok(!e.body!.includes("sekretkey987"));
  assert.ok(!e.message.includes("sekretkey987"));
});

Deno.test("each upstream request logs one debug line: redacted URL, status, ms, attempt, fromCache", async () => {
  const h = harness((_, i) => i === 0 ? text("", 503) : text("ok"), { env: SECRETS });
  const req = { upstream: "ncbi-eutils" as const, path: "/esearch.fcgi", query: { term: "x" } };
  await drive(h.clock, h.upstream.request(req));
  await drive(h.clock, h.upstream.request(req));
  const lines = h.logs.filter((r) => r.msg === "upstream request");
  assert.deepEqual(
    lines.map((r) => [r.level, r.status, r.attempt, r.fromCache]),
    [["debug", 503, 1, false], ["debug", 200, 2, false], ["debug", 200, 0, true]],
  );
  for (const line of lines) {
    assert.equal(typeof line.ms, "number");
    assert.match(String(line.url), /api_key=REDACTED/);
  }
});

Deno.test("status() reports last success, last error, queue length and the cool-down per upstream", async () => {
  const h = harness((_, i) => i === 0 ? text("", 429, { "retry-after": "5" }) : text("ok"), {
    env: { NCBI_REQUEST_DELAY_MS: "334" },
  });
  const before = h.upstream.status();
  // Every upstream of the table but the per-host ones (their entries appear per host once asked).
  assert.deepEqual(Object.keys(before).sort(), UPSTREAMS.filter((d) => !d.perHost).map((d) => d.name).sort());
  assert.ok(Object.keys(before).includes("ncbi-eutils"));
  assert.equal(before["ncbi-eutils"].queueLength, 0);

  const calls = [1, 2, 3].map((n) => h.upstream.request({ upstream: "ncbi-eutils", path: `/${n}` }));
  await h.clock.advance(0);
  const cooling = h.upstream.status()["ncbi-eutils"];
  assert.equal(cooling.cooldownUntil, new Date(5000).toISOString());
  assert.equal(cooling.queueLength, 3, "two new requests and the retry of the first");
  assert.equal(cooling.lastErrorAt, new Date(0).toISOString());
  assert.equal(cooling.lastError, "throttled: 429");

  await drive(h.clock, Promise.all(calls));
  const after = h.upstream.status()["ncbi-eutils"];
  assert.equal(after.queueLength, 0);
  assert.equal(after.cooldownUntil, undefined);
  assert.equal(after.lastSuccessAt, new Date(5668).toISOString());
  assert.equal(after.inFlight, 0);
});

Deno.test("publisher links get one queue per host", async () => {
  const h = harness(() => text("%PDF"));
  const get = (url: string) => h.upstream.request({ upstream: "publisher", url });
  await drive(
    h.clock,
    Promise.all([get("https://a.example/1"), get("https://b.example/1"), get("https://a.example/2")]),
  );
  // Policy spacing is 200 ms per host plus the 10 % margin: the two hosts start together, a.example's second waits.
  assert.deepEqual(h.hits.map((x) => `${x.url.host}@${x.at}`), ["a.example@0", "b.example@0", "a.example@220"]);
  const status = h.upstream.status();
  assert.ok(status["publisher:a.example"] && status["publisher:b.example"]);
});
