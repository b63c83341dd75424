import assert from "node:assert/strict";
import { toErrorEnvelope, UpstreamError } from "../../src/core/errors.ts";
import { detectArxivThrottle } from "../../src/upstreams/arxiv_api.ts";
import { detectNcbiThrottle } from "../../src/upstreams/ncbi_eutils.ts";
import { detectPubchemThrottle, throttlingFactor } from "../../src/upstreams/pubchem.ts";
import { drive, harness, outcome, text } from "./helpers.ts";

const probe = (head: string, status = 200, headers: Record<string, string> = {}) => ({
  status,
  head,
  headers: new Headers(headers),
});

Deno.test("throttle detectors recognise each upstream's signal and nothing else", async (t) => {
  await t.step("arXiv: a 200 whose whole body is 'Rate exceeded.'", () => {
    assert.ok(detectArxivThrottle(probe("Rate exceeded.")).throttled);
    assert.ok(detectArxivThrottle(probe("Rate exceeded.\n")).throttled);
    assert.equal(detectArxivThrottle(probe("<feed><title>Rate exceeded. A study</title></feed>")).throttled, undefined);
  });
  await t.step("NCBI: JSON and XML 'API rate limit exceeded'", () => {
    assert.ok(
      detectNcbiThrottle(probe('{"error":"API rate limit exceeded","api-key":"1.2.3.4","count":"4"}')).throttled,
    );
    assert.ok(
      detectNcbiThrottle(probe('<?xml version="1.0"?><eSearchResult><ERROR>API rate limit exceeded</ERROR>')).throttled,
    );
    assert.equal(detectNcbiThrottle(probe("<eSearchResult><ERROR>Empty term</ERROR>")).throttled, undefined);
  });
  await t.step("PubChem: X-Throttling-Control colours and the ServerBusy fault", () => {
    const header = (v: string) => ({ "x-throttling-control": v });
    const green = "Request Count status: Green (0%), Request Time status: Green (0%), Service status: Green (20%)";
    const yellow = "Request Count status: Yellow (60%), Request Time status: Green (10%), Service status: Green (20%)";
    const red = "Request Count status: Green (10%), Request Time status: Red (80%), Service status: Yellow (40%)";
    assert.deepEqual(detectPubchemThrottle(probe("{}", 200, header(green))), { slowdown: 1 });
    assert.deepEqual(detectPubchemThrottle(probe("{}", 200, header(yellow))), { slowdown: 2 });
    assert.deepEqual(detectPubchemThrottle(probe("{}", 200, header(red))), { slowdown: 4 });
    assert.ok(detectPubchemThrottle(probe("{}", 503, header(green.replace("Green (0%)", "Black (100%)")))).throttled);
    const busy = '{"Fault":{"Code":"PUGREST.ServerBusy","Message":"Too many requests or server too busy"}}';
    assert.ok(detectPubchemThrottle(probe(busy, 503)).throttled);
    assert.deepEqual(detectPubchemThrottle(probe("{}")), {}, "no header, no information");
    assert.equal(throttlingFactor("garbage"), undefined);
  });
});

Deno.test("arXiv 'Rate exceeded.' with HTTP 200 is retried after a cool-down instead of parsed", async () => {
  const h = harness((_, i) => i === 0 ? text("Rate exceeded.") : text("<feed/>"));
  const response = await drive(h.clock, h.upstream.request({ upstream: "arxiv-api", path: "/query" }));
  assert.equal(response.text(), "<feed/>");
  assert.deepEqual(h.hits.map((x) => x.at), [0, 5000], "arXiv cool-down starts at 5 s");
});

Deno.test("arXiv 'Rate exceeded.' that never stops ends as RATE_LIMITED, never as an empty success", async () => {
  const h = harness(() => text("Rate exceeded."));
  const { error } = await drive(h.clock, outcome(h.upstream.request({ upstream: "arxiv-api", path: "/query" })));
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.status, 429);
  assert.match(error.message, /^export\.arxiv\.org answered "Rate exceeded\." \(HTTP 200\) 4 times; retry after/);
  assert.equal(toErrorEnvelope(error).code, "RATE_LIMITED");
});

Deno.test("NCBI rate-limit bodies with HTTP 200 are treated as 429", async (t) => {
  for (
    const body of [
      '{"error":"API rate limit exceeded","api-key":"10.0.0.1","count":"4","limit":"3"}',
      "<eSearchResult><ERROR>API rate limit exceeded</ERROR></eSearchResult>",
    ]
  ) {
    await t.step(body.slice(0, 20), async () => {
      const h = harness((_, i) => i === 0 ? text(body) : text("<eSearchResult><Count>1</Count></eSearchResult>"));
      const response = await drive(h.clock, h.upstream.request({ upstream: "ncbi-eutils", path: "/esearch.fcgi" }));
      assert.match(response.text(), /<Count>1/);
      assert.deepEqual(h.hits.map((x) => x.at), [0, 1000]);
    });
  }
});

Deno.test("PubChem X-Throttling-Control slows the pubchem queue down and Green restores it", async () => {
  const colour = ["Yellow (60%)", "Yellow (60%)", "Red (80%)", "Green (10%)", "Green (10%)", "Green (10%)"];
  const h = harness((_, i) =>
    text("{}", 200, {
      "x-throttling-control": `Request Count status: ${
        colour[i]
      }, Request Time status: Green (1%), Service status: Green (5%)`,
    })
  );
  const calls = Array.from({ length: 6 }, (_, i) => h.upstream.request({ upstream: "pubchem", path: `/pug/${i}` }));
  await h.clock.advance(0);
  assert.equal(h.upstream.status().pubchem.slowdown, 2);
  await drive(h.clock, Promise.all(calls));
  // 200 ms base spacing + 10 % margin = 220 ms: ×2 after the first Yellow, ×4 after Red, ×1 after Green.
  assert.deepEqual(h.hits.map((x) => x.at), [0, 440, 880, 1760, 1980, 2200]);
  assert.equal(h.upstream.status().pubchem.slowdown, undefined);
});

Deno.test("PubChem 503 PUGREST.ServerBusy cools down and retries", async () => {
  const busy = '{"Fault":{"Code":"PUGREST.ServerBusy","Message":"Too many requests or server too busy"}}';
  const h = harness((_, i) => i === 0 ? text(busy, 503) : text('{"PropertyTable":{}}'));
  const response = await drive(h.clock, h.upstream.request({ upstream: "pubchem", path: "/pug/compound/cid/2244" }));
  assert.equal(response.status, 200);
  assert.deepEqual(h.hits.map((x) => x.at), [0, 1000]);
});
