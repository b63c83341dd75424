/**
 * Errors that reach the model say what happened in one sentence: a host that cannot be reached (DNS,
 * refused connection) is "cannot reach <host>", tried twice at most, and never answered with rate-limit
 * advice; rate-limit advice (API keys) comes only with rate limits.
 */
import assert from "node:assert/strict";
import { systemClock } from "../../src/core/clock.ts";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { unreachableReason } from "../../src/upstream/http_attempt.ts";
import { createUpstream } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const esearch = { upstream: "ncbi-eutils" as const, path: "/esearch.fcgi", query: { term: "x" } };

/** What Deno's fetch throws when it cannot connect (the inner message is Deno 2.9's, verbatim). */
function connectError(inner: string): TypeError {
  return new TypeError("fetch failed", {
    cause: new Error(
      `error sending request for url (https://eutils.ncbi.nlm.nih.gov/): client error (Connect): ${inner}`,
    ),
  });
}

const DNS = "dns error: failed to lookup address information: Name or service not known";
const REFUSED = "tcp connect error: Connection refused (os error 111)";

Deno.test("unreachable reasons: DNS, refused, no route, TLS; a reset is not one of them", () => {
  assert.equal(unreachableReason(DNS), "DNS lookup failed");
  assert.equal(unreachableReason(REFUSED), "connection refused");
  assert.equal(unreachableReason("tcp connect error: No route to host (os error 113)"), "no route to host");
  assert.equal(unreachableReason("invalid peer certificate: UnknownIssuer"), "TLS handshake failed");
  assert.equal(unreachableReason("connection reset by peer"), undefined);
});

for (
  const [what, inner, reason] of [["DNS failure", DNS, "DNS lookup failed"], ["refused", REFUSED, "connection refused"]]
) {
  Deno.test(`${what}: "cannot reach <host>", tried twice not four times, no API-key advice`, async () => {
    const h = harness(() => Promise.reject(connectError(inner)), { env: { NCBI_MAX_RETRIES: "3" } });
    const { error } = await drive(h.clock, outcome(h.upstream.request(esearch)));
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.kind, "unreachable");
    assert.equal(h.hits.length, 2, "one retry in case it was a blip, not NCBI_MAX_RETRIES");
    assert.equal(error.message, `cannot reach eutils.ncbi.nlm.nih.gov: ${reason}`);
    const envelope = toErrorEnvelope(error, h.upstream.recoveryHint);
    assert.equal(envelope.code, "UPSTREAM_ERROR");
    assert.doesNotMatch(envelope.recovery_hint, /API_KEY|rate|requests\/s/i);
    assert.match(envelope.recovery_hint, /network connection and NCBI_EUTILS_BASE_URL/);
  });
}

Deno.test("with NCBI_MAX_RETRIES=0 an unreachable host is tried once", async () => {
  const h = harness(() => Promise.reject(connectError(DNS)), { env: { NCBI_MAX_RETRIES: "0" } });
  await drive(h.clock, outcome(h.upstream.request(esearch)));
  assert.equal(h.hits.length, 1);
});

Deno.test("rate-limit advice only for rate limits: a 429 names NCBI_API_KEY, a 500 does not", async () => {
  const limited = harness(() => text('{"error":"API rate limit exceeded"}', 429, { "retry-after": "1" }), {
    env: { NCBI_MAX_RETRIES: "0" },
  });
  const rate = await drive(limited.clock, outcome(limited.upstream.request(esearch)));
  const rateEnvelope = toErrorEnvelope(rate.error, limited.upstream.recoveryHint);
  assert.equal(rateEnvelope.code, "RATE_LIMITED");
  assert.match(rateEnvelope.recovery_hint, /^Retry after 1 s\. .*set NCBI_API_KEY/);

  const broken = harness(() => text("<html>Internal Server Error</html>", 500), { env: { NCBI_MAX_RETRIES: "0" } });
  const failed = await drive(broken.clock, outcome(broken.upstream.request(esearch)));
  const failedEnvelope = toErrorEnvelope(failed.error, broken.upstream.recoveryHint);
  assert.equal(failedEnvelope.code, "UPSTREAM_ERROR");
  assert.equal(failedEnvelope.message.split(/(?<=\.)\s/).length, 1, "one sentence");
  assert.doesNotMatch(failedEnvelope.recovery_hint, /API_KEY/);
});

Deno.test("over real sockets: a closed loopback port is 'cannot reach 127.0.0.1:<port>: connection refused'", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const upstream = createUpstream({
    fetch: (request) => fetch(request),
    clock: systemClock,
    config: testConfig({ PUBCHEM_BASE_URL: `http://127.0.0.1:${port}/rest` }),
    log: memoryLogger(),
    random: () => 0,
  });
  const error = await upstream.request({ upstream: "pubchem", path: "/pug/x" }).catch((e) => e);
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.message, `cannot reach 127.0.0.1:${port}: connection refused`);
  assert.match(toErrorEnvelope(error, upstream.recoveryHint).recovery_hint, /PUBCHEM_BASE_URL/);
});
