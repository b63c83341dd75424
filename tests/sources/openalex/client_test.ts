import assert from "node:assert/strict";
import { ManualClock } from "../../../src/core/clock.ts";
import { ToolError, UpstreamError } from "../../../src/core/errors.ts";
import { OpenAlexClient } from "../../../src/sources/openalex/client.ts";
import type { Env } from "../../../src/config.ts";
import { fixture, type RecordedRequest, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";
import { settle } from "../../tools/papers/mock.ts";

function setup(respond: (req: RecordedRequest) => Response, env: Env = {}) {
  const clock = new ManualClock(1_700_000_000_000);
  const fetch = scriptedFetch(respond);
  const runtime = testRuntime({ fetch, clock, env });
  const client = new OpenAlexClient({
    upstream: runtime.upstream,
    signal: new AbortController().signal,
    config: runtime.deps.config,
  });
  return { clock, fetch, client };
}

const json = (body: string, headers: Record<string, string> = {}, status = 200) =>
  new Response(body, { status, headers: { "content-type": "application/json", ...headers } });

/** The 200-work page, cut to `n` results, with a cursor to a second call. */
function page(n: number, next: string | null): string {
  const list = JSON.parse(fixture("openalex/openalexsdk__works_search_english_africa.json"));
  return JSON.stringify({ meta: { ...list.meta, per_page: n, next_cursor: next }, results: list.results.slice(0, n) });
}

Deno.test("works() pages with cursors and sends filter, sort, per_page and select; the pipeline adds the key", async () => {
  const { clock, fetch, client } = setup(
    (req) => json(req.url.searchParams.get("cursor") === "*" ? page(100, "c2") : page(100, null)),
    { OPENALEX_API_KEY: "secret-key", OPENALEX_MAILTO: "me@example.org" },
  );
  const { works, total } = await settle(
    clock,
    client.works({ filter: "topics.id:T11636", sort: "publication_date:desc", count: 150 }),
  );
  assert.equal(works.length, 150);
  assert.equal(total, 4312);
  const [first, second] = fetch.requests.map((r) => r.url.searchParams);
  assert.equal(first.get("filter"), "topics.id:T11636");
  assert.equal(first.get("sort"), "publication_date:desc");
  assert.equal(first.get("per_page"), "100");
  assert.equal(first.get("cursor"), "*");
  assert.match(first.get("select") ?? "", /^id,doi,display_name,publication_date,authorships/);
  assert.equal(first.get("api_key"), "secret-key");
  assert.equal(first.get("mailto"), "me@example.org");
  assert.equal(second.get("cursor"), "c2");
  assert.equal(fetch.requests.length, 2);
});

Deno.test("works() stops at the recorded empty last page", async () => {
  const { clock, fetch, client } = setup((req) =>
    json(
      req.url.searchParams.get("cursor") === "*"
        ? page(2, "end")
        : fixture("openalex/openalexpro__works_cursor_last_page_empty.json"),
    )
  );
  const { works, total, shortfall } = await settle(
    clock,
    client.works({ filter: "topics.id:T1", sort: "cited_by_count:desc", count: 50 }),
  );
  assert.equal(works.length, 2);
  assert.equal(fetch.requests.length, 2);
  // The first page reported 4312; the empty last page's count (2) does not replace it, and 2 of 50 is partial.
  assert.equal(total, 4312);
  assert.equal(shortfall, "partial result: 2 of 50 works; OpenAlex ended the listing early");
});

Deno.test("works() that gets everything OpenAlex has is not partial", async () => {
  const { clock, client } = setup((req) => {
    if (req.url.searchParams.get("cursor") !== "*") {
      return json(fixture("openalex/openalexpro__works_cursor_last_page_empty.json"));
    }
    const list = JSON.parse(page(2, "end"));
    return json(JSON.stringify({ ...list, meta: { ...list.meta, count: 2 } }));
  });
  const result = await settle(clock, client.works({ filter: "topics.id:T1", sort: "cited_by_count:desc", count: 50 }));
  assert.equal(result.works.length, 2);
  assert.equal(result.total, 2);
  assert.equal(result.shortfall, undefined);
});

Deno.test("notices() name a missing key and report the cost headers", async () => {
  const { clock, client } = setup(() =>
    json(page(1, null), { "x-ratelimit-cost-usd": "0.0001", "x-ratelimit-remaining-usd": "0.0099" })
  );
  await settle(clock, client.works({ filter: "topics.id:T1", sort: "cited_by_count:desc", count: 1 }));
  const notices = client.notices();
  assert.deepEqual(notices.map((n) => n.code), ["OpenAlexKeyMissing", "OpenAlexBudget"]);
  assert.match(notices[0].message, /OPENALEX_API_KEY/);
  assert.equal(notices[1].message, "OpenAlex budget: $0.0099 left today; this request cost $0.0001.");
});

Deno.test("OpenAlex failures become specific errors", async (t) => {
  const failing = (status: number, body = '{"error":"Forbidden"}') => () => json(body, {}, status);
  const run = (respond: () => Response, env: Env = {}) => {
    const { clock, client } = setup(respond, env);
    return settle(clock, client.works({ filter: "x", sort: "y", count: 1 }));
  };
  await t.step("400 carries OpenAlex's message as INVALID_INPUT", async () => {
    await assert.rejects(
      run(failing(400, fixture("openalex/openalexpro__error_400_invalid_filter_field.json"))),
      (e) => e instanceof ToolError && e.code === "INVALID_INPUT" && /DOESNTEXIST is not a valid field/.test(e.message),
    );
  });
  await t.step("403 without a key says to set OPENALEX_API_KEY", async () => {
    await assert.rejects(
      run(failing(403)),
      (e) =>
        e instanceof ToolError && e.code === "NOT_AVAILABLE" && /OPENALEX_API_KEY is not set/.test(e.message) &&
        /openalex\.org\/settings\/api/.test(e.recoveryHint),
    );
  });
  await t.step("401 with a key says the key was not accepted", async () => {
    await assert.rejects(
      run(failing(401), { OPENALEX_API_KEY: "bad" }),
      (e) => e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /key was not accepted/.test(e.message),
    );
  });
  await t.step("404 of a work is ENTITY_NOT_FOUND", async () => {
    const { clock, client } = setup(failing(404, '{"error":"Not Found"}'));
    await assert.rejects(
      settle(clock, client.work("W1")),
      (e) => e instanceof ToolError && e.code === "ENTITY_NOT_FOUND" && /work W1/.test(e.message),
    );
  });
  await t.step("429 with a key stays the pipeline's rate-limit error", async () => {
    await assert.rejects(
      run(failing(429), { OPENALEX_API_KEY: "k" }),
      (e) => e instanceof UpstreamError && e.status === 429,
    );
  });
});
