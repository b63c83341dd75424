import assert from "node:assert/strict";
import { createMockUpstream, type MockUpstream, startMockUpstream } from "../../scripts/mock_upstream.ts";
import type { MockRoute } from "../../scripts/mock_routes/types.ts";
import { SimClock } from "../../scripts/mock_upstream/sim_clock.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { UpstreamError } from "../../src/core/errors.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { createUpstream } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";

const echo: MockRoute[] = [
  {
    prefix: "ncbi",
    name: "esearch echo",
    handle: (r) =>
      r.path === "/esearch.fcgi"
        ? new Response(`<eSearchResult><term>${r.params.get("term")}</term></eSearchResult>`, {
          headers: { "content-type": "text/xml" },
        })
        : undefined,
  },
  { prefix: "pubchem", name: "any pubchem", handle: () => Response.json({ ok: true }) },
  { prefix: "arxiv-api", name: "any arxiv", handle: () => new Response("<feed/>") },
  {
    prefix: "publisher",
    name: "doi redirect",
    handle: (r) =>
      r.path === "/doi" ? new Response(null, { status: 302, headers: { location: "/landing" } }) : undefined,
  },
  {
    prefix: "publisher",
    name: "moved",
    handle: (r) =>
      r.path === "/moved"
        ? new Response(null, { status: 301, headers: { location: "/publisher/landing" } })
        : undefined,
  },
  { prefix: "publisher", name: "landing", handle: (r) => r.path === "/landing" ? new Response("landing") : undefined },
];

async function withMock(
  options: Parameters<typeof startMockUpstream>[0],
  body: (mock: MockUpstream) => Promise<void>,
): Promise<void> {
  const mock = await startMockUpstream({ routes: echo, onlyRoutes: true, ...options });
  try {
    await body(mock);
  } finally {
    await mock.close();
  }
}

async function get(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The same mock in process, on a clock that only moves when the test says so: no timing, no jitter. */
function inProcess(options: Parameters<typeof createMockUpstream>[0] = {}) {
  const clock = new ManualClock(1_000_000);
  const mock = createMockUpstream({ routes: echo, onlyRoutes: true, clock, ...options });
  const send = async (path: string, init?: RequestInit) => {
    const response = await mock.fetch(new Request(`${mock.url}${path}`, init));
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  return { clock, mock, send };
}

Deno.test("mock upstream serves each upstream under its prefix and prints the env lines to use it", async () => {
  await withMock({ rates: false }, async (mock) => {
    assert.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(mock.env.NCBI_EUTILS_BASE_URL, `${mock.url}/ncbi`);
    assert.equal(mock.env.PUBCHEM_BASE_URL, `${mock.url}/pubchem`);
    assert.equal(mock.env.ARXIV_API_BASE_URL, `${mock.url}/arxiv-api`);
    assert.equal(mock.env.ARXIV_WEB_BASE_URL, `${mock.url}/arxiv-web`);
    assert.equal(mock.env.AR5IV_BASE_URL, `${mock.url}/ar5iv`);
    assert.equal(mock.env.OPENALEX_BASE_URL, `${mock.url}/openalex`);
    const ok = await get(`${mock.env.NCBI_EUTILS_BASE_URL}/esearch.fcgi?term=BRCA1`);
    assert.equal(ok.status, 200);
    assert.match(ok.text, /<term>BRCA1<\/term>/);
  });
});

Deno.test("unknown routes and prefixes get a 404 that says what exists", async () => {
  await withMock({ rates: false }, async (mock) => {
    const route = await get(`${mock.url}/ncbi/efetch.fcgi?db=pubmed`);
    assert.equal(route.status, 404);
    assert.match(route.text, /no route for GET \/ncbi\/efetch\.fcgi\?db=pubmed \(routes under \/ncbi: esearch echo\)/);
    const prefix = await get(`${mock.url}/nowhere/x`);
    assert.equal(prefix.status, 404);
    assert.match(prefix.text, /unknown prefix.*\/ncbi, \/pubchem/);
  });
});

Deno.test("the request log records time, method, path and merged query/form parameters", async () => {
  const { mock, send, clock } = inProcess({ rates: false });
  {
    const before = Date.now();
    await send("/ncbi/esearch.fcgi?db=pubmed", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "term=TP53&api_key=k",
    });
    const after = Date.now();
    const [entry] = mock.requests;
    assert.equal(entry.method, "POST");
    assert.equal(entry.prefix, "ncbi");
    assert.equal(entry.upstream, "ncbi-eutils");
    assert.equal(entry.path, "/esearch.fcgi");
    assert.deepEqual(entry.params, { db: "pubmed", term: "TP53", api_key: "k" });
    assert.equal(entry.status, 200);
    assert.equal(entry.route, "esearch echo");
    assert.ok(entry.time >= before && entry.time <= after, "wall-clock arrival");
    assert.equal(entry.at, clock.now(), "arrival on the mock's clock");
  }
});

Deno.test("rate enforcement answers 429 and counts a violation when a client is too fast", async () => {
  const { mock, send, clock } = inProcess();
  assert.equal((await send("/arxiv-api/query")).status, 200);
  await clock.advance(2_000);
  const second = await send("/arxiv-api/query");
  assert.equal(second.status, 429, "arXiv allows one request per 3 s");
  assert.match(second.text, /arrived 2000 ms after the previous request; arxiv-api allows one per 3000 ms/);
  const ncbi = [await send("/ncbi/esearch.fcgi?term=a"), await send("/ncbi/esearch.fcgi?term=b")];
  assert.deepEqual(ncbi.map((r) => r.status), [200, 429]);
  assert.match(ncbi[1].text, /"error":"API rate limit exceeded"/, "NCBI's own over-limit body");
  assert.deepEqual(mock.violations, { "arxiv-api": 1, "ncbi-eutils": 1 });
  assert.ok(mock.requests[1].violation);
});

Deno.test("rate rules can be overridden; spaced requests are not violations", async () => {
  const { mock, send, clock } = inProcess({ rates: { pubchem: { intervalMs: 40, perMinute: 3 } } });
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push((await send("/pubchem/x")).status);
    await clock.advance(40);
  }
  assert.deepEqual(statuses, [200, 200, 200, 429], "the 4th breaks the per-minute budget of 3");
  assert.match(mock.requests[3].violation!, /4 requests in 60 s; pubchem allows 3/);
});

Deno.test("in process, delays and slow bodies follow the mock's clock; cut bodies fail as on a socket", async (t) => {
  const { send, mock, clock } = inProcess({ rates: false });
  const ncbi = "/ncbi/esearch.fcgi?term=x";
  await t.step("a delay answers exactly when its time has come", async () => {
    let answered = false;
    const delayed = send(ncbi, { headers: { "x-mock-fault": "delay=60" } }).then((r) => (answered = true, r));
    await clock.advance(59);
    assert.equal(answered, false);
    await clock.advance(1);
    assert.match((await delayed).text, /<term>x<\/term>/);
  });
  await t.step("a slow body arrives chunk by chunk as the clock moves", async () => {
    let answered = false;
    const slow = send(ncbi, { headers: { "x-mock-fault": "slow=10;chunks=5" } }).then((r) => (answered = true, r));
    await clock.advance(39);
    assert.equal(answered, false);
    await clock.advance(20);
    assert.match((await slow).text, /<term>x<\/term>/);
  });
  await t.step("reset and truncate fail while the body is read", async () => {
    for (const spec of ["reset", "truncate"]) {
      mock.setFault("ncbi", spec, { times: 1 });
      const response = await mock.fetch(new Request(`${mock.url}${ncbi}`));
      assert.equal(response.status, 200);
      await assert.rejects(response.text(), TypeError, spec);
    }
  });
  await t.step("redirects are followed unless the request says manual; the final URL is reported", async () => {
    const followed = await mock.fetch(new Request(`${mock.url}/publisher/moved`));
    assert.equal(followed.url, `${mock.url}/publisher/landing`);
    assert.equal(await followed.text(), "landing");
    const manual = await mock.fetch(new Request(`${mock.url}/publisher/moved`, { redirect: "manual" }));
    assert.equal(manual.status, 301);
    await manual.body?.cancel();
  });
});

Deno.test("faults can be injected per prefix, for the next N requests, by header or by query", async (t) => {
  await withMock({ rates: false }, async (mock) => {
    const ncbi = `${mock.url}/ncbi/esearch.fcgi?term=x`;
    await t.step("429 with Retry-After, twice, then back to normal", async () => {
      mock.setFault("ncbi", "429;retry-after=2", { times: 2 });
      const answers = [await get(ncbi), await get(ncbi), await get(ncbi)];
      assert.deepEqual(answers.map((a) => a.status), [429, 429, 200]);
      assert.equal(answers[0].headers.get("retry-after"), "2");
      assert.equal(mock.requests.at(-3)!.fault, "429;retry-after=2");
    });
    await t.step("429 without Retry-After, 500, 502, 503", async () => {
      for (const status of [429, 500, 502, 503]) {
        mock.setFault("ncbi", { kind: "status", status }, { times: 1 });
        const answer = await get(ncbi);
        assert.equal(answer.status, status);
        assert.equal(answer.headers.get("retry-after"), null);
      }
    });
    await t.step("reset and truncate break the body mid-transfer", async () => {
      for (const spec of ["reset", "truncate"]) {
        mock.setFault("ncbi", spec, { times: 1 });
        const response = await fetch(ncbi);
        assert.equal(response.status, 200);
        await assert.rejects(response.text(), TypeError, spec);
      }
    });
    await t.step("throttle signals that are not 429s", async () => {
      assert.equal((await get(ncbi, { headers: { "x-mock-fault": "rate-exceeded" } })).text, "Rate exceeded.");
      assert.match((await get(`${ncbi}&mock_fault=ncbi-rate-limit`)).text, /API rate limit exceeded/);
      const busy = await get(`${mock.url}/pubchem/x?mock_fault=pubchem-busy`);
      assert.equal(busy.status, 503);
      assert.match(busy.text, /PUGREST\.ServerBusy/);
      const yellow = await get(`${mock.url}/pubchem/x?mock_fault=throttle=Yellow`);
      assert.match(yellow.headers.get("x-throttling-control")!, /Request Count status: Yellow/);
      assert.equal(yellow.text, '{"ok":true}', "the route still answers");
    });
    await t.step("a per-request fault parameter is not passed on to the route", async () => {
      await get(`${ncbi}&mock_fault=empty`);
      assert.equal(mock.requests.at(-1)!.params.mock_fault, undefined);
    });
    await t.step("HTML error page with 200, empty body, oversize body", async () => {
      const html = await get(ncbi, { headers: { "x-mock-fault": "html" } });
      assert.equal(html.status, 200);
      assert.match(html.headers.get("content-type")!, /text\/html/);
      assert.equal((await get(ncbi, { headers: { "x-mock-fault": "empty" } })).text, "");
      assert.equal((await get(ncbi, { headers: { "x-mock-fault": "oversize=300000" } })).text.length, 300_000);
    });
    await t.step("an unknown fault is a 400 naming the accepted forms", async () => {
      const bad = await get(ncbi, { headers: { "x-mock-fault": "explode" } });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /unknown mock fault 'explode'; use 429/);
    });
    await t.step("faults can be set and cleared over HTTP", async () => {
      assert.equal((await get(`${mock.url}/_mock/fault?prefix=pubchem&fault=502`, { method: "POST" })).status, 204);
      assert.equal((await get(`${mock.url}/pubchem/x`)).status, 502);
      assert.equal((await get(`${mock.url}/_mock/fault`, { method: "DELETE" })).status, 204);
      assert.equal((await get(`${mock.url}/pubchem/x`)).status, 200);
      const log = JSON.parse((await get(`${mock.url}/_mock/requests`)).text);
      assert.equal(log.at(-1).path, "/x");
    });
  });
});

Deno.test("the real pipeline against the mock: paced, retried through injected faults, no violations", async () => {
  const clock = new SimClock();
  const rates = { "ncbi-eutils": { intervalMs: 30 }, publisher: { intervalMs: 30 } };
  const mock = createMockUpstream({ routes: echo, onlyRoutes: true, rates, clock });
  const upstream = createUpstream({
    fetch: mock.fetch,
    clock,
    config: testConfig(mock.env),
    log: memoryLogger(),
    random: () => 0.01,
    policies: { "ncbi-eutils": { intervalMs: 30 }, publisher: { intervalMs: 30 } },
  });
  mock.setFault("ncbi", "503", { times: 1 });
  const terms = ["a", "b", "c", "d", "e"];
  const responses = await clock.run(Promise.all(
    terms.map((term) => upstream.request({ upstream: "ncbi-eutils", path: "/esearch.fcgi", query: { term } })),
  ));
  assert.deepEqual(responses.map((r) => r.text().match(/<term>(\w)/)?.[1]), terms);
  assert.equal(mock.requests.length, 6, "five requests and one retry");
  assert.deepEqual(mock.violations, {});
  const gaps = mock.requests.slice(1).map((r, i) => r.at - mock.requests[i].at);
  assert.ok(gaps.every((gap) => gap >= 30), `arrivals at least 30 ms apart: ${gaps}`);
  assert.equal(mock.requests[0].params.tool, "science-mcp/0.1.0", "credentials reach the upstream");

  const redirect = await clock.run(upstream.request({
    upstream: "publisher",
    url: `${mock.url}/publisher/doi`,
    redirect: "manual",
  }));
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get("location"), "/landing");

  mock.setFault("ncbi", "reset");
  const failed = await clock.run(
    upstream.request({ upstream: "ncbi-eutils", path: "/esearch.fcgi", query: { term: "z" } }).catch((e) => e),
  );
  assert.ok(failed instanceof UpstreamError);
  assert.equal(failed.kind, "network");
});

Deno.test("`deno task mock` prints the port and the env lines, then serves until stopped", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read=.", "scripts/mock_upstream.ts", "--no-rates"],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("OPENALEX_BASE_URL=")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    reader.releaseLock();
    const port = out.match(/port (\d+)/)?.[1];
    assert.ok(port, out);
    assert.match(out, new RegExp(`^NCBI_EUTILS_BASE_URL=http://127\\.0\\.0\\.1:${port}/ncbi$`, "m"));
    assert.match(out, new RegExp(`^PUBCHEM_BASE_URL=http://127\\.0\\.0\\.1:${port}/pubchem$`, "m"));
    const answer = await fetch(`http://127.0.0.1:${port}/nowhere`);
    assert.equal(answer.status, 404);
    await answer.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel().catch(() => {});
  }
});
