/**
 * The rasteriser itself, imported only by rasterize.ts when a chart is drawn: resvg compiled to WebAssembly
 * and the Noto Sans font both arrive as byte imports of their npm packages, so no file read permission is
 * needed, `deno compile` and `deno bundle` carry them, and a server that never draws a chart never loads
 * them. The instance is per process (wasm-bindgen keeps one); rendering is synchronous and stateless.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };
import notoSansLatin from "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff" with { type: "bytes" };
import { FONT_FAMILY } from "./svg.ts";
import { woffToSfnt } from "./woff.ts";

await initWasm(resvgWasm);
const font = woffToSfnt(notoSansLatin);

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
