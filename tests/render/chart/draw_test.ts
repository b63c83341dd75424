import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { Resvg } from "@resvg/resvg-wasm";
import notoSansLatin from "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff" with { type: "bytes" };
import { drawSvg, REPLACEMENT } from "../../../src/render/chart/draw.ts";
import { extendedFonts, renderPng } from "../../../src/render/chart/js_renderer.ts";
import { svgToPng } from "../../../src/render/chart/rasterize.ts";
import { woffToSfnt } from "../../../scripts/woff_to_sfnt.ts";
import { pngInfo } from "../../../src/sources/pubchem/depiction.ts";
import { SAMPLE_CHARTS } from "./sample_charts.ts";

/** The RGB pixels of a PNG our encoder wrote (8-bit RGB, filter None on every row). */
function decodeOurPng(png: Uint8Array): { width: number; height: number; rgb: Uint8Array } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  let at = 8;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = view.getUint32(at);
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === "IDAT") {
      idat.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = new Uint8Array(inflateSync(new Uint8Array(idat.flatMap((c) => [...c]))));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (width * 3 + 1)], 0, "filter type None");
    rgb.set(raw.subarray(y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1)), y * width * 3);
  }
  return { width, height, rgb };
}

const text = (content: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#fff"/>` +
  `<text x="10" y="30" font-size="24" fill="#000">${content}</text></svg>`;

Deno.test("every chart kind drawn in JavaScript matches resvg's drawing of the same SVG, pixel for pixel within anti-aliasing", async () => {
  await import("../../../src/render/chart/resvg.ts"); // initialises resvg's wasm (once per process)
  const fonts = await extendedFonts();
  const font = woffToSfnt(notoSansLatin);
  for (const [name, chart] of Object.entries(SAMPLE_CHARTS)) {
    // resvg sets text beyond Latin-1 as empty boxes here, so the reference is drawn with those characters replaced.
    const svg = chart.replace(/[^\t\n\r\x20-\xff]/g, "?");
    const reference = new Resvg(svg, {
      font: { fontBuffers: [font], defaultFontFamily: "Noto Sans", sansSerifFamily: "Noto Sans" },
    }).render().pixels;
    const canvas = drawSvg(svg, fonts);
    let total = 0;
    let far = 0;
    for (let i = 0, j = 0; i < canvas.rgb.length; i += 3, j += 4) {
      let worst = 0;
      for (let k = 0; k < 3; k++) {
        const d = Math.abs(canvas.rgb[i + k] - reference[j + k]);
        total += d;
        worst = Math.max(worst, d);
      }
      if (worst > 64) far++;
    }
    const mean = total / canvas.rgb.length;
    assert.ok(mean < 1, `${name}: mean difference ${mean.toFixed(3)} of 255`);
    assert.ok(far <= 100, `${name}: ${far} pixels differ by more than a quarter`);
  }
});

Deno.test("the PNG holds exactly the drawn pixels at the SVG's size", async () => {
  const svg = SAMPLE_CHARTS["trend line, partial year"];
  const png = await renderPng(svg);
  assert.deepEqual(await pngInfo(png), { width: 600, height: 400 }, "a whole PNG: every chunk's CRC, IEND last");
  const decoded = decodeOurPng(png);
  assert.deepEqual(decoded.rgb, drawSvg(svg, await extendedFonts()).rgb);
});

Deno.test("every character the charts promise has its own glyph: ASCII, Latin-1, Latin Extended-A, Greek, typographic punctuation", async () => {
  const fonts = await extendedFonts();
  const promised = [
    ...Array.from({ length: 0x7f - 0x21 }, (_, i) => 0x21 + i),
    ...Array.from({ length: 0x100 - 0xa1 }, (_, i) => 0xa1 + i).filter((c) => c !== 0xad),
    ...Array.from({ length: 0x180 - 0x100 }, (_, i) => 0x100 + i),
    ...Array.from({ length: 0x3aa - 0x391 }, (_, i) => 0x391 + i).filter((c) => c !== 0x3a2),
    ...Array.from({ length: 0x3ca - 0x3b1 }, (_, i) => 0x3b1 + i),
    ...[..."–—‘’“”…•−€™′″·×±°µ²³Å"].map((c) => c.codePointAt(0)!),
  ];
  const missing = promised.filter((c) => {
    const { font, glyph } = fonts.find(c);
    return glyph === font.glyph(REPLACEMENT) || font.outline(glyph).length === 0;
  });
  assert.deepEqual(missing.map((c) => String.fromCodePoint(c)), []);
});

Deno.test("a character no bundled font has is drawn as U+FFFD, never as nothing", async () => {
  const cjk = decodeOurPng(await renderPng(text("中")));
  const replacement = decodeOurPng(await renderPng(text("\uFFFD")));
  const blank = decodeOurPng(await renderPng(text("")));
  assert.deepEqual(cjk.rgb, replacement.rgb);
  assert.notDeepEqual(cjk.rgb, blank.rgb);
  const alpha = decodeOurPng(await renderPng(text("α")));
  assert.notDeepEqual(alpha.rgb, replacement.rgb, "α has its own glyph (Greek subset)");
  assert.notDeepEqual(alpha.rgb, blank.rgb);
});

Deno.test("SVG outside the charts' subset is drawn by resvg instead: nothing is dropped", async () => {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><rect width="60" height="40" fill="#fff"/>` +
    `<ellipse cx="30" cy="20" rx="20" ry="10" fill="#0072B2"/></svg>`;
  await assert.rejects(() => renderPng(svg), /ellipse/);
  const png = await svgToPng(svg);
  const blank = await svgToPng(`<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"></svg>`);
  assert.deepEqual(await pngInfo(png), { width: 60, height: 40 });
  assert.ok(png.length > blank.length, "the ellipse was drawn");
});
