/**
 * SVG → PNG without a browser or native add-on. Our charts are drawn in JavaScript (js_renderer.ts: no wasm to
 * compile, so the first chart costs about what a later one does, #36); SVG outside the charts' subset goes to
 * resvg's WebAssembly rasteriser (resvg.ts). Both load on first use, not at start-up.
 */
import { UnsupportedSvg } from "./draw.ts";

let js: Promise<typeof import("./js_renderer.ts")> | undefined;
let resvg: Promise<typeof import("./resvg.ts")> | undefined;

export async function svgToPng(svg: string): Promise<Uint8Array> {
  // One load per process; a failed load is retried next time.
  js ??= import("./js_renderer.ts").catch((error) => {
    js = undefined;
    throw error;
  });
  try {
    return await (await js).renderPng(svg);
  } catch (error) {
    if (!(error instanceof UnsupportedSvg)) throw error;
  }
  resvg ??= import("./resvg.ts").catch((error) => {
    resvg = undefined;
    throw error;
  });
  return (await resvg).renderPng(svg);
}
