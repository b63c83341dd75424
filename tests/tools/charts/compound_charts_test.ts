import assert from "node:assert/strict";
import { type CallResult, withTools } from "../../helpers/tool_harness.ts";
import { assertChartPng, type ChartImage, tableRows } from "./chart_checks.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "pubchem" };

Deno.test("generate_compound_chart over MCP: a PNG, the same numbers as a table and as structuredContent", async (t) => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    await t.step("bar: one panel per property, rows in request order, the unknown CID reported", async () => {
      const result = await h.call("generate_compound_chart", {
        cids: [3672, 2244, 999999],
        properties: ["MolecularWeight", "XLogP", "TPSA"],
      });
      await assertChartPng(result);
      const s = result.structuredContent as {
        rows: { CID: number; Title?: string; values: Record<string, number> }[];
        notFoundCids: number[];
      };
      assert.deepEqual(s.rows, [
        { CID: 3672, Title: "Ibuprofen", values: { MolecularWeight: 206.28, XLogP: 3.5, TPSA: 37.3 } },
        { CID: 2244, Title: "Aspirin", values: { MolecularWeight: 180.16, XLogP: 1.2, TPSA: 63.6 } },
      ]);
      assert.deepEqual(s.notFoundCids, [999999]);
      const text = result.content[0].text;
      assert.match(
        text,
        /\| CID \| Title \| Molecular weight \(g\/mol\) \| XLogP \(log P, unitless\) \| TPSA \(Å²\) \|/,
      );
      assert.deepEqual(tableRows(text), [
        ["3672", "Ibuprofen", "206.28", "3.5", "37.3"],
        ["2244", "Aspirin", "180.16", "1.2", "63.6"],
      ]);
      assert.match(text, /notFoundCids \(not charted\): 999999/);
    });
    await t.step("scatter: x then y; the SVG is served as a resource", async () => {
      const result = await h.call("generate_compound_chart", {
        cids: [2244, 3672],
        properties: ["XLogP", "TPSA"],
        kind: "scatter",
      });
      await assertChartPng(result);
      const uri = (result.structuredContent.image as ChartImage).svgUri;
      assert.match(uri, /^pubchem:\/\/chart\/[0-9a-f]{16}$/);
      const read = await h.client.readResource({ uri });
      const svg = (read.contents[0] as { text: string }).text;
      assert.equal(read.contents[0].mimeType, "image/svg+xml");
      assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="400"/);
      for (const label of ["Aspirin", "Ibuprofen", "XLogP (log P, unitless)", "TPSA (Å²)"]) {
        assert.ok(svg.includes(label));
      }
    });
    await t.step("the same chart asked twice comes back the same: one svgUri, the same PNG bytes", async () => {
      const args = { cids: [2244, 3672], properties: ["HBondDonorCount"] };
      const first = await h.call("generate_compound_chart", args);
      const second = await h.call("generate_compound_chart", args);
      assert.deepEqual(await assertChartPng(second), await assertChartPng(first));
      assert.deepEqual(second.structuredContent.image, first.structuredContent.image);
    });
    await t.step("scatter with one property is INVALID_INPUT, before any request", async () => {
      const before = h.requests.length;
      const result = await h.call("generate_compound_chart", {
        cids: [2244, 3672],
        properties: ["XLogP"],
        kind: "scatter",
      });
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent.error as { code: string }).code, "INVALID_INPUT");
      assert.equal(h.requests.length, before);
    });
    await t.step("reading a chart id the server does not hold is an error, not an empty SVG", async () => {
      await assert.rejects(() => h.client.readResource({ uri: "pubchem://chart/0000000000000000" }), /No chart/);
    });
  });
});

Deno.test("generate_bioactivity_chart over MCP: outcome counts per target as chart, table and structuredContent", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result: CallResult = await h.call("generate_bioactivity_chart", { cid: 2244, top: 5 });
    await assertChartPng(result);
    const s = result.structuredContent as {
      targets: { label: string; active: number; inactive: number; inconclusive: number; tested: number }[];
      totalTargets: number;
    };
    assert.ok(s.targets.length > 0 && s.targets.length <= 5);
    for (const t of s.targets) assert.ok(t.active + t.inactive + t.inconclusive <= t.tested, t.label);
    for (let i = 1; i < s.targets.length; i++) {
      assert.ok(s.targets[i - 1].active >= s.targets[i].active, "most active first");
    }
    const rows = tableRows(result.content[0].text);
    assert.deepEqual(
      rows.map((r) => [r[0], Number(r[4]), Number(r[5]), Number(r[6]), Number(r[8])]),
      s.targets.map((t) => [t.label, t.active, t.inactive, t.inconclusive, t.tested]),
    );
  });
});
