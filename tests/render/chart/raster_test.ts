import assert from "node:assert/strict";
import { Canvas } from "../../../src/render/chart/raster.ts";
import { drawSvg, FontSet, UnsupportedSvg } from "../../../src/render/chart/draw.ts";
import { svgToPng } from "../../../src/render/chart/rasterize.ts";
import { pngInfo } from "../../../src/sources/pubchem/depiction.ts";

/** Black's coverage summed over the canvas, in pixels (white is 0, black 1 per pixel). */
const inked = (canvas: Canvas) => {
  let sum = 0;
  for (let i = 0; i < canvas.rgb.length; i += 3) sum += (255 - canvas.rgb[i]) / 255;
  return sum;
};

Deno.test("a filled polygon's coverage adds up to its area: steep, shallow and clipped edges, both windings", () => {
  const shapes: [string, number[], number][] = [
    // A shallow triangle (edges crossing many pixels per row): area 40 × 3 / 2.
    ["shallow", [2.3, 4.6, 42.3, 7.6, 2.3, 7.6], 60],
    // A steep, thin sliver (within one pixel per row), turned the other way: area 0.5 × 30 / 2.
    ["steep", [10.2, 1.1, 10.7, 31.1, 10.2, 31.1].reverse(), 7.5],
    // A square half off the canvas's top-left corner: 10 × 10 drawn of 20 × 20.
    ["clipped", [-10, -10, 10, -10, 10, 10, -10, 10], 100],
  ];
  for (const [name, polygon, area] of shapes) {
    const canvas = new Canvas(50, 40);
    canvas.fill([polygon], 0x000000);
    assert.ok(Math.abs(inked(canvas) - area) < 0.01 * area, `${name}: ${inked(canvas).toFixed(2)} ≠ ${area}`);
  }
  const square = new Canvas(50, 40);
  square.fill([[-10, -10, 10, -10, 10, 10, -10, 10]], 0x336699);
  assert.deepEqual(
    [...square.rgb.subarray(3 * (5 * 50 + 5), 3 * (5 * 50 + 6))],
    [0x33, 0x66, 0x99],
    "inside: the colour",
  );
  assert.deepEqual([...square.rgb.subarray(3 * (5 * 50 + 10), 3 * (5 * 50 + 11))], [255, 255, 255], "outside: white");
});

Deno.test("a shape beyond the rasteriser's whole-number range is not drawn wrong: the SVG goes to resvg", async () => {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><rect width="60" height="40" fill="#fff"/>` +
    `<line x1="0" y1="20" x2="1e7" y2="20" stroke="#000" stroke-width="4"/></svg>`;
  assert.throws(
    () => drawSvg(svg, new FontSet([])),
    (error) => error instanceof UnsupportedSvg && /px from/.test(String(error)),
  );
  assert.deepEqual(await pngInfo(await svgToPng(svg)), { width: 60, height: 40 });
});
