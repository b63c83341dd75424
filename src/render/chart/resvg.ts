/**
 * The rasteriser itself, imported only by rasterize.ts when a chart is drawn: resvg compiled to WebAssembly and
 * the Noto Sans font, both carried as gzipped base64 in ./assets (made from their pinned npm packages by
 * scripts/embed_chart_assets.ts). So no permission set needs a file read for them, `deno compile`, `deno bundle`
 * and JSR carry them, and a server that never draws a chart never decodes them. Where raw imports are enabled
 * the wasm comes from the pinned package instead (cheaper to load; see resvgWasm). The wasm instance is per process
 * (wasm-bindgen keeps one); rendering is synchronous and stateless.
 */
import { initWasm, Resvg } from "npm:@resvg/resvg-wasm@2.6.2";
import { assetBytes } from "./asset_bytes.ts";
import { NOTO_SANS_LATIN_SFNT_BASE64 } from "./assets/noto_sans_latin.ts";
import { FONT_FAMILY } from "./svg.ts";

/** The package's wasm, as a variable so that `deno bundle` leaves it out (the bundle carries the embedded copy). */
const RESVG_WASM = "npm:@resvg/resvg-wasm@2.6.2/index_bg.wasm";

/**
 * resvg's wasm bytes: the package's file imported as bytes (~4 ms of CPU) where raw imports are enabled (deno.json
 * enables them), else the embedded copy (~30–50 ms: parsing a 1.3 MB string module, decoding, inflating), which a
 * compiled binary or a run without raw imports uses. Part of the first chart's cost (#36).
 */
async function resvgWasm(): Promise<Uint8Array> {
  try {
    return (await import(RESVG_WASM, { with: { type: "bytes" } })).default;
  } catch {
    const { RESVG_WASM_GZIP_BASE64 } = await import("./assets/resvg_wasm.ts");
    return assetBytes(RESVG_WASM_GZIP_BASE64);
  }
}

await initWasm(await resvgWasm());
const font = Uint8Array.fromBase64(NOTO_SANS_LATIN_SFNT_BASE64);

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
