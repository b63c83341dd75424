/**
 * PNG encoding with the platform's deflate (`CompressionStream("deflate")` writes the zlib stream PNG's
 * IDAT wants), so drawing a page needs no encoder dependency: 8-bit RGB, each row filtered "Up" (a page is
 * mostly rows like the one above it), CRC-32 per chunk. Measured in bench/png_encode.ts.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return crc;
}

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
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, adaptive filtering, no interlace
  const parts = [new Uint8Array(SIGNATURE), chunk("IHDR", header), chunk("IDAT", compressed), chunk("IEND")];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

function chunk(type: string, data = new Uint8Array(0)): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, (crc32(out.subarray(4, 8 + data.length)) ^ 0xffffffff) >>> 0);
  return out;
}
