import assert from "node:assert/strict";
import { esc, fitText, formatTick, groupDigits, niceTicks, textWidth } from "../../../src/render/chart/svg.ts";
import { yearSeriesSvg } from "../../../src/render/chart/year_series.ts";
import { barPanelsSvg } from "../../../src/render/chart/bar_panels.ts";
import { stackedBarsSvg } from "../../../src/render/chart/stacked_bars.ts";

Deno.test("niceTicks covers the range with 1, 2 or 5 × 10^n steps", () => {
  assert.deepEqual(niceTicks(0, 63.6, 4), [0, 20, 40, 60, 80]);
  assert.deepEqual(niceTicks(-0.1, 4.5, 4), [-2, 0, 2, 4, 6]);
  assert.deepEqual(niceTicks(0, 0, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(0, 70_000, 5), [0, 20_000, 40_000, 60_000, 80_000]);
});

Deno.test("tick labels: thousands as k, millions as M, at most three decimals", () => {
  assert.deepEqual([5, 0.125, 2500, 40_000, 1_200_000].map(formatTick), ["5", "0.125", "2,500", "40k", "1.2M"]);
});

Deno.test("numbers are written as en-US writes them (commas, at most three decimals), without loading Intl", () => {
  const values = [
    0,
    -0,
    5,
    -0.1,
    0.125,
    0.0004,
    -0.0004,
    1.2345,
    999.9996,
    999,
    1000,
    2500,
    12_345.678,
    -2500,
    1_234_567,
  ];
  values.push(80_000, 0.2 + 0.1, 1e-7, 1.5e21, 63.6, 180.16, 0.0005, 2.0005);
  for (const value of values) {
    assert.equal(groupDigits(value), value.toLocaleString("en-US", { maximumFractionDigits: 3 }), String(value));
  }
});

Deno.test("fitText cuts a long label with an ellipsis to the width, and leaves a short one alone", () => {
  assert.equal(fitText("TP53", 11, 100), "TP53");
  const cut = fitText("prostaglandin-endoperoxide synthase 1", 11, 100);
  assert.ok(cut.endsWith("…") && cut.length < 30, cut);
  assert.ok(textWidth(cut, 11) <= 100);
});

Deno.test("text is XML-escaped, so a query with < or & cannot break the SVG", () => {
  assert.equal(esc(`a<b & "c"`), "a&lt;b &amp; &quot;c&quot;");
  const svg = yearSeriesSvg({ title: "x < y & z", yTitle: "n", kind: "line", points: [{ year: 2020, count: 1 }] });
  assert.ok(svg.includes("x &lt; y &amp; z") && !svg.includes("x < y"));
});

/** The x positions of the year labels a series draws (labels are the only 4-digit texts). */
function yearLabelXs(svg: string): number[] {
  return [...svg.matchAll(/<text x="([\d.]+)"[^>]*>(\d{4})<\/text>/g)].map((m) => Number(m[1]));
}

Deno.test("year labels never touch: 50 years are labelled every 5 (or 10), 5 years every year", () => {
  const points = (n: number) => Array.from({ length: n }, (_, i) => ({ year: 1975 + i, count: i }));
  for (const n of [5, 20, 50]) {
    const xs = yearLabelXs(yearSeriesSvg({ title: "t", yTitle: "n", kind: "bar", points: points(n) }));
    const gaps = xs.slice(1).map((x, i) => x - xs[i]);
    assert.ok(gaps.every((gap) => gap >= textWidth("2020", 11) + 4), `${n} years: gaps ${gaps}`);
  }
  assert.equal(yearLabelXs(yearSeriesSvg({ title: "t", yTitle: "n", kind: "line", points: points(5) })).length, 5);
});

Deno.test("bar panels: one panel title per property, a missing value says n/a, long names are cut", () => {
  const svg = barPanelsSvg({
    title: "t",
    categories: ["Aspirin", "a very long compound name that cannot fit under a bar"],
    panels: [{ title: "XLogP", values: [1.2, undefined] }, { title: "TPSA (Å²)", values: [63.6, 40] }],
  });
  assert.ok(svg.includes(">XLogP<") && svg.includes(">TPSA (Å²)<") && svg.includes(">n/a<"));
  assert.ok(!svg.includes("cannot fit under a bar<") && svg.includes("…"));
});

Deno.test("stacked bars draw a segment per non-zero part, in the parts' colours", () => {
  const svg = stackedBarsSvg({
    title: "t",
    xTitle: "Assays (count)",
    parts: [{ name: "active", color: "#D55E00" }, { name: "inactive", color: "#56B4E9" }],
    rows: [{ label: "PTGS1", values: [3, 0] }, { label: "PTGS2", values: [1, 1] }],
  });
  assert.equal([...svg.matchAll(/fill="#D55E00"/g)].length, 3, "legend square + two active segments");
  assert.equal([...svg.matchAll(/fill="#56B4E9"/g)].length, 2, "legend square + one inactive segment");
});
