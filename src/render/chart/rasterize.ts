/**
 * SVG → PNG without a browser or native add-on. The WebAssembly rasteriser (2.5 MB) and its font load on
 * the first chart, not at start-up: this module imports them dynamically.
 */

let renderer: Promise<typeof import("./resvg.ts")> | undefined;

export async function svgToPng(svg: string): Promise<Uint8Array> {
  // One load per process: the wasm instance is process-wide, and a failed load is retried next time.
  renderer ??= import("./resvg.ts").catch((error) => {
    renderer = undefined;
    throw error;
  });
  return (await renderer).renderPng(svg);
}
