import assert from "node:assert/strict";
import { svgToPng } from "../../../src/render/chart/rasterize.ts";
import { woffToSfnt } from "../../../scripts/woff_to_sfnt.ts";
import { pngInfo } from "../../../src/sources/pubchem/depiction.ts";
import notoSansLatin from "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff" with { type: "bytes" };

Deno.test("woffToSfnt gives an OpenType font: its head table keeps the magic number", () => {
  const sfnt = woffToSfnt(notoSansLatin);
  const view = new DataView(sfnt.buffer);
  const tables = view.getUint16(4);
  const tags = Array.from(
    { length: tables },
    (_, i) => String.fromCharCode(...sfnt.subarray(12 + 16 * i, 16 + 16 * i)),
  );
  for (const tag of ["cmap", "glyf", "head", "hmtx", "name"]) assert.ok(tags.includes(tag), tag);
  const head = view.getUint32(12 + 16 * tags.indexOf("head") + 8);
  assert.equal(view.getUint32(head + 12), 0x5f0f3cf5);
});

Deno.test("woffToSfnt refuses what is not WOFF 1.0", () => {
  assert.throws(() => woffToSfnt(new Uint8Array(64)), /not a WOFF 1.0 font/);
});

Deno.test("svgToPng draws text with the bundled font: a whole PNG of the SVG's size, larger than the blank canvas", async () => {
  const blank =
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><rect width="200" height="50" fill="#fff"/>`;
  const withText = await svgToPng(
    `${blank}<text x="10" y="35" font-size="24" font-family="Noto Sans">Å² µM</text></svg>`,
  );
  const without = await svgToPng(`${blank}</svg>`);
  assert.deepEqual(await pngInfo(withText), { width: 200, height: 50 });
  assert.ok(withText.length > without.length + 200, "glyphs were drawn (no font would leave the image blank)");
});
