import assert from "node:assert/strict";
import { EXIT_OK, EXIT_TOOL_ERROR } from "../../../src/cli/main.ts";
import { fixture, type Route } from "../../helpers/runtime.ts";
import { withTools } from "../../helpers/tool_harness.ts";
import { cliCall } from "./cli_io.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "papers", OPENALEX_API_KEY: "test-key" };

Deno.test("get_citation_graph resolves a PMID through OpenAlex and lists citing works with chainable ids", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("get_citation_graph", { id: "PMID:29456894", relation: "cited_by", limit: 3 });
    assert.equal(result.isError, undefined, result.content[0].text);
    const out = result.structuredContent as {
      work: Record<string, unknown>;
      items: Record<string, unknown>[];
      total_count: number;
      next_cursor?: string;
    };
    assert.equal(out.work.openalex, "W2741809807");
    assert.equal(out.work.pmid, "29456894");
    assert.equal(out.work.pmcid, "PMC5815332");
    assert.equal(out.items.length, 3);
    assert.equal(out.items[0].openalex, "W4211228191");
    assert.equal(out.items[0].doi, "10.1017/cbo9780511800306");
    assert.ok(out.next_cursor, "more pages");
    const filter = h.requests.map((r) => r.url.searchParams.get("filter")).find(Boolean);
    assert.equal(filter, "cites:W2741809807");
    assert.match(
      result.content[0].text,
      /^⟦\n3 works of 4312 \(cited_by\) for W2741809807 · DOI 10\.7717\/peerj\.4375/,
    );
    assert.match(result.content[0].text, /next page: call again with cursor="/);

    const second = await h.call("get_citation_graph", {
      id: "PMID:29456894",
      relation: "cited_by",
      limit: 3,
      cursor: out.next_cursor,
    });
    const items = (second.structuredContent.items as { openalex: string }[]).map((i) => i.openalex);
    assert.equal(items.length, 3);
    assert.ok(!items.includes("W4211228191"), "the second page goes on from the first");
  });
});

Deno.test("get_citation_graph refuses a cursor from another relation and an id it cannot read", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const first = await h.call("get_citation_graph", { id: "W2741809807", relation: "references", limit: 2 });
    const cursor = first.structuredContent.next_cursor as string;
    const other = await h.call("get_citation_graph", { id: "W2741809807", relation: "related", cursor });
    assert.equal(other.isError, true);
    assert.match(other.content[0].text, /different get_citation_graph query/);
    const bad = await h.call("get_citation_graph", { id: "not an id" });
    assert.equal(bad.isError, true);
    assert.equal((bad.structuredContent.error as { code: string }).code, "INVALID_INPUT");
  });
});

Deno.test("get_citation_graph from the CLI: references of a DOI, and ENTITY_NOT_FOUND for an unknown one", async () => {
  await withTools({ env: ENV }, async (h) => {
    const ok = await cliCall(h, "get_citation_graph", { id: "https://doi.org/10.7717/peerj.4375", limit: 2 });
    assert.equal(ok.code, EXIT_OK, ok.out + ok.err);
    const out = JSON.parse(ok.out);
    assert.equal(out.relation, "references");
    assert.equal(out.items.length, 2);
    const missing = await cliCall(h, "get_citation_graph", { id: "10.9999/not-there" });
    assert.equal(missing.code, EXIT_TOOL_ERROR);
    assert.equal(JSON.parse(missing.out).error.code, "ENTITY_NOT_FOUND");
  });
});

/** The bodies the fault matrix sends with HTTP 200 where JSON was due, and JSON that is not the record. */
function badBodies(recorded: string): [string, string][] {
  const mid = Math.floor(recorded.length / 2);
  return [
    ["halfdoc", recorded.slice(0, mid)],
    ["malformed", `${recorded.slice(0, mid)}\u0000<<garbage ]]} {{>>${recorded.slice(mid)}`],
    [
      "html",
      "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>",
    ],
    ["rate-200", "Rate exceeded."],
    ["empty", ""],
    ["json null", "null"],
    ["json array", "[]"],
    ["json string", '"W2741809807"'],
  ];
}

const WORK_PATH = /\/works\/W2741809807$/;
const LIST_PATH = /\/works$/;

function answer(path: RegExp, body: string): Route {
  return (request) =>
    path.test(request.url.pathname)
      ? new Response(body, { status: 200, headers: { "content-type": "application/json" } })
      : undefined;
}

async function assertUpstreamEnvelope(route: Route, what: string): Promise<void> {
  await withTools({ env: ENV, driveClock: true, routes: [route] }, async (h) => {
    const result = await h.call("get_citation_graph", { id: "W2741809807", relation: "cited_by", limit: 3 });
    assert.equal(result.isError, true, `${what}: ${result.content[0].text}`);
    const error = result.structuredContent.error as { code: string; message: string; recovery_hint: string };
    assert.notEqual(error.code, "INTERNAL", `${what}: ${error.message}`);
    assert.equal(error.code, "UPSTREAM_ERROR", `${what}: ${error.message}`);
    assert.match(error.message, /OpenAlex/, what);
    assert.match(error.recovery_hint, /\S/, `${what}: a recovery hint`);
    assert.match(error.recovery_hint, /retry|try again|later|again/i, `${what}: the hint says what to do`);
  });
}

Deno.test("get_citation_graph: an unparseable or wrongly shaped work body is UPSTREAM_ERROR, never INTERNAL", async (t) => {
  for (const [name, body] of badBodies(fixture("openalex/openalexpython__W2741809807_2025.json"))) {
    await t.step(name, () => assertUpstreamEnvelope(answer(WORK_PATH, body), `work body ${name}`));
  }
  await t.step(
    "a work record without a W id",
    () => assertUpstreamEnvelope(answer(WORK_PATH, '{"display_name":"no id"}'), "work without id"),
  );
});

Deno.test("get_citation_graph: an unparseable or wrongly shaped list body is UPSTREAM_ERROR, never INTERNAL", async (t) => {
  const work = JSON.parse(fixture("openalex/openalexpython__W2741809807_2025.json"));
  const list = JSON.stringify({ meta: { count: 1, per_page: 3 }, results: [work] });
  for (const [name, body] of badBodies(list)) {
    await t.step(name, () => assertUpstreamEnvelope(answer(LIST_PATH, body), `list body ${name}`));
  }
  await t.step(
    "a list whose results is not an array",
    () => assertUpstreamEnvelope(answer(LIST_PATH, '{"meta":{"count":1},"results":{}}'), "results object"),
  );
});

Deno.test("get_citation_graph keeps the readable works of a list with entries that are not works, and says so", async () => {
  const work = JSON.parse(fixture("openalex/openalexpython__W2741809807_2025.json"));
  const list = JSON.stringify({ meta: { count: 3, per_page: 3 }, results: [null, work, "W1"] });
  await withTools({ env: ENV, driveClock: true, routes: [answer(LIST_PATH, list)] }, async (h) => {
    const result = await h.call("get_citation_graph", { id: "W2741809807", relation: "cited_by", limit: 3 });
    assert.equal(result.isError, undefined, result.content[0].text);
    const out = result.structuredContent as { items: { openalex?: string }[]; warnings?: { code: string }[] };
    assert.deepEqual(out.items.map((i) => i.openalex), ["W2741809807"]);
    assert.deepEqual(out.warnings?.map((w) => w.code), ["UnreadableRecords"]);
    assert.match(result.content[0].text, /warning UnreadableRecords: OpenAlex sent 2 list entries/);
  });
});
