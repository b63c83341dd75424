/**
 * PNG encoding with the platform's deflate (`CompressionStream("deflate")` writes the zlib stream PNG's
 * IDAT wants), so drawing a page needs no encoder dependency: 8-bit RGB, each row filtered "Up" (a page is
 * mostly rows like the one above it), in the shared container (render/png_file.ts). Measured in bench/png_encode.ts.
 */

import { pngFile } from "../../render/png_file.ts";

/** A PNG of `rgb` (width × height pixels, 3 bytes each, rows top to bottom). */
export async function encodePng(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  if (rgb.length !== width * height * 3) {
    throw new Error(`expected ${width * height * 3} bytes of RGB, got ${rgb.length}`);
  }
  const stride = width * 3;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    const row = y * stride;
    filtered[out] = 2; // Up
    for (let x = 0; x < stride; x++) {
      filtered[out + 1 + x] = (rgb[row + x] - (y > 0 ? rgb[row - stride + x] : 0)) & 0xff;
    }
  }
  const compressed = new Uint8Array(
    await new Response(new Blob([filtered]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  return pngFile(width, height, compressed);
}
