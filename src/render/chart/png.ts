/**
 * A canvas as PNG: 8-bit RGB, rows unfiltered, zlib's deflate and crc32, in the shared container (../png_file.ts). node:zlib rather than
 * CompressionStream: in a server it loads in ~4 ms against ~6 ms for a first CompressionStream, and later charts
 * drew faster with it. On charts (flat colours, long runs) filter "None" gave smaller files than "Up" (17–30 KB
 * against 20–35 KB for the five kinds) and needs no pass over the pixels in JavaScript.
 * Format: https://www.w3.org/TR/png/
 */
import { crc32, deflateSync } from "node:zlib";
import { pngFile } from "../png_file.ts";

export function encodePng(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 3;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row: filter type 0 (None), then its bytes.
    filtered.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return pngFile(width, height, deflateSync(filtered), (bytes) => crc32(bytes));
}
