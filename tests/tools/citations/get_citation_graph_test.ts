import assert from "node:assert/strict";
import { EXIT_OK, EXIT_TOOL_ERROR } from "../../../src/cli/main.ts";
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
    assert.match(result.content[0].text, /^3 works of 4312 \(cited_by\) for W2741809807 · DOI 10\.7717\/peerj\.4375/);
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
