/**
 * Charts say what they show (#34): the year under way is marked partial in the trend's chart, table and
 * structuredContent (its low count is not a decline); the bioactivity chart is titled with the compound's name.
 */
import assert from "node:assert/strict";
import { type CallResult, type ToolHarness, withTools } from "../../helpers/tool_harness.ts";
import { assertChartPng, type ChartImage, tableRows } from "./chart_checks.ts";

async function svgOf(h: ToolHarness, result: CallResult): Promise<string> {
  const uri = (result.structuredContent.image as ChartImage).svgUri;
  return ((await h.client.readResource({ uri })).contents[0] as { text: string }).text;
}

Deno.test("the trend marks the current year as partial; a range that ends earlier marks nothing", async () => {
  // The harness clock stands at 1 March 2026: 2026 has two months of counts.
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "papers" }, driveClock: true }, async (h) => {
    for (const kind of ["line", "bar"]) {
      const result = await h.call("generate_publication_trend", { query: "heparin", fromYear: 2020, kind });
      await assertChartPng(result);
      assert.equal(result.structuredContent.partial_year, 2026);
      const rows = tableRows(result.content[0].text);
      assert.equal(rows.at(-1)![0], "2026 (partial: so far)");
      assert.ok(rows.slice(0, -1).every((r) => /^\d{4}$/.test(r[0])), "only the current year is marked");
      const svg = await svgOf(h, result);
      assert.match(svg, />partial</);
      assert.match(svg, /Publication year \(2026 partial: counted so far\)/);
      assert.match(svg, /stroke-dasharray/, `${kind}: the partial year is drawn apart`);
    }
    const past = await h.call("generate_publication_trend", { query: "heparin", fromYear: 2010, toYear: 2012 });
    assert.equal(past.structuredContent.partial_year, undefined);
    assert.doesNotMatch(await svgOf(h, past), /partial/);
    assert.doesNotMatch(past.content[0].text, /partial/);
  });
});

Deno.test("the bioactivity chart is titled with the compound's name", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "pubchem" }, driveClock: true }, async (h) => {
    const result = await h.call("generate_bioactivity_chart", { cid: 2244, top: 3 });
    await assertChartPng(result);
    assert.equal(result.structuredContent.name, "Aspirin");
    assert.match(result.content[0].text, /^# Bioactivity of Aspirin \(CID 2244\) by target/);
    assert.match(await svgOf(h, result), /Aspirin \(CID 2244\): PubChem assays by target/);
    // Gene ids as get_gene takes them.
    assert.equal(tableRows(result.content[0].text)[0][1], "NCBIGene:5742");
  });
});
