/**
 * The rasteriser itself, imported only by rasterize.ts when a chart is drawn: resvg compiled to WebAssembly and
 * the Noto Sans font, both carried as gzipped base64 in ./assets (made from their pinned npm packages by
 * scripts/embed_chart_assets.ts). So no permission set needs a file read for them, `deno compile`, `deno bundle`
 * and JSR carry them, and a server that never draws a chart never decodes them. The wasm instance is per process
 * (wasm-bindgen keeps one); rendering is synchronous and stateless.
 */
import { gunzipSync } from "node:zlib";
import { initWasm, Resvg } from "npm:@resvg/resvg-wasm@2.6.2";
import { RESVG_WASM_GZIP_BASE64 } from "./assets/resvg_wasm.ts";
import { NOTO_SANS_LATIN_WOFF_GZIP_BASE64 } from "./assets/noto_sans_latin.ts";
import { FONT_FAMILY } from "./svg.ts";
import { woffToSfnt } from "./woff.ts";

/** The bytes an asset module carries. */
export function assetBytes(gzipBase64: string): Uint8Array {
  return new Uint8Array(gunzipSync(Uint8Array.fromBase64(gzipBase64)));
}

await initWasm(assetBytes(RESVG_WASM_GZIP_BASE64));
const font = woffToSfnt(assetBytes(NOTO_SANS_LATIN_WOFF_GZIP_BASE64));

/** The SVG drawn at its own size (600×400) as a PNG. */
export function renderPng(svg: string): Uint8Array {
  const resvg = new Resvg(svg, {
    font: { fontBuffers: [font], defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
  });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
