import assert from "node:assert/strict";
import { researchRoutes } from "../../../scripts/mock_routes/research.ts";
import { toMockRequest } from "../../helpers/mock_routes.ts";
import type { Route } from "../../helpers/runtime.ts";
import { dataOf, errorOf, withSession } from "../pubmed/mcp_session.ts";

const PAPERS = { SCIENCE_MCP_TOOLSETS: "papers" };

interface Converted {
  records: { requested_id: string; pmid?: string; pmcid?: string; doi?: string; mid?: string; error?: string }[];
  converted: number;
  failed: number;
}

/** The mock upstream's PMC ID Converter, answering at the converter's real address. */
export const idconvRoute: Route = (request) => {
  if (!request.url.pathname.includes("/idconv/")) return undefined;
  return researchRoutes.find((r) => r.prefix === "idconv")!.handle(toMockRequest(request, "/")) as Response;
};

Deno.test("convert_article_ids converts mixed ids, one request per id type, answers in the order asked", async () => {
  await withSession([idconvRoute], async ({ call, requests }) => {
    const result = await call("convert_article_ids", {
      ids: ["22416237", "PMC8435807", "doi:10.3389/FPSYT.2012.00018", "36987902", "not-an-id", "27797938"],
    });
    const out = dataOf<Converted>(result);
    assert.deepEqual(out.records, [
      { requested_id: "22416237", pmid: "22416237", pmcid: "PMC3299399", doi: "10.3389/fpsyt.2012.00018" },
      { requested_id: "PMC8435807", pmid: "34527728", pmcid: "PMC8435807", doi: "10.1183/23120541.50193-2021" },
      {
        requested_id: "doi:10.3389/FPSYT.2012.00018",
        pmid: "22416237",
        pmcid: "PMC3299399",
        doi: "10.3389/fpsyt.2012.00018",
      },
      { requested_id: "36987902", pmid: "36987902", error: "Identifier not found in PMC" },
      { requested_id: "not-an-id", error: "not a PMID, PMCID or DOI" },
      {
        requested_id: "27797938",
        pmid: "27797938",
        pmcid: "PMC5442267",
        doi: "10.1136/gutjnl-2016-312510",
        mid: "NIHMS857349",
      },
    ]);
    assert.deepEqual([out.converted, out.failed], [4, 2]);
    const sent = requests.map((r) => r.url.searchParams);
    assert.deepEqual(sent.map((p) => [p.get("idtype"), p.get("ids"), p.get("format")]), [
      ["pmid", "22416237,36987902,27797938", "json"],
      ["pmcid", "PMC8435807", "json"],
      ["doi", "10.3389/FPSYT.2012.00018", "json"],
    ]);
    assert.equal(
      requests[0].url.origin + requests[0].url.pathname,
      "https://www.ncbi.nlm.nih.gov/pmc/utils/idconv/v1.0/",
    );
    assert.ok(sent.every((p) => p.get("tool")?.startsWith("science-mcp")), "tool identifies the caller");
    assert.ok(sent.every((p) => !p.has("api_key")), "the converter takes no API key: none is sent");
    const text = result.content[0].text!;
    assert.match(text, /^# 4 of 6 ids converted\n\n⟦\n## 22416237\npmid: 22416237\npmcid: PMC3299399\n/);
    assert.match(text, /## 36987902\npmid: 36987902\nerror: Identifier not found in PMC/);
  }, { ...PAPERS, NCBI_ADMIN_EMAIL: "admin@example.org" });
});

Deno.test("convert_article_ids splits long lists into requests of at most 200 ids", async () => {
  await withSession([idconvRoute], async ({ call, requests }) => {
    const ids = Array.from({ length: 450 }, (_, i) => String(30_000_000 + i));
    const out = dataOf<Converted>(await call("convert_article_ids", { ids }));
    assert.deepEqual(requests.map((r) => r.url.searchParams.get("ids")!.split(",").length), [200, 200, 50]);
    assert.equal(out.records.length, 450);
    assert.equal(out.failed, 450);
    assert.equal(out.records[449].requested_id, "30000449");
  }, { ...PAPERS, SCIENCE_MCP_MAX_OUTPUT_CHARS: "1000000" });
});

Deno.test("convert_article_ids refuses an empty or oversized list before calling NCBI", async () => {
  await withSession([idconvRoute], async ({ call, requests }) => {
    assert.equal(errorOf(await call("convert_article_ids", { ids: [] })).code, "INVALID_INPUT");
    const many = Array.from({ length: 1001 }, (_, i) => String(i + 1));
    assert.match(errorOf(await call("convert_article_ids", { ids: many })).message, /'ids'/);
    assert.equal(requests.length, 0);
  }, PAPERS);
});

Deno.test("convert_article_ids reports a converter outage as UPSTREAM_ERROR, not as unconverted ids", async () => {
  const down: Route = (r) => r.url.pathname.includes("/idconv/") ? new Response("busy", { status: 503 }) : undefined;
  await withSession([down], async ({ call }) => {
    const error = errorOf(await call("convert_article_ids", { ids: ["22416237"] }));
    assert.equal(error.code, "UPSTREAM_ERROR");
  }, PAPERS);
});
