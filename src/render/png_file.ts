/**
 * The PNG container around an already deflated image: signature, IHDR (8-bit RGB), one IDAT, IEND, CRC-32 per
 * chunk. The chart encoder (render/chart/png.ts) and the PDF page renderer (sources/pdf/png.ts) filter and deflate
 * their rows each their own way and share this. The PDF extractor process is granted read access to this file
 * (extractor_process.ts). Format: https://www.w3.org/TR/png/
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/**
 * A PNG file of `width` × `height` RGB pixels whose filtered rows `idat` holds as a zlib stream. Each chunk's CRC-32 is
 * computed here in JavaScript, except the IDAT chunk's when the caller has it already (the chart encoder, png.ts,
 * gets it natively): in a server's first chart that loop over the IDAT bytes cost ~5 ms of CPU, most of it V8
 * compiling it (#36).
 */
export function pngFile(width: number, height: number, idat: Uint8Array, idatCrc?: number): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, adaptive filtering, no interlace
  const parts = [
    new Uint8Array(SIGNATURE),
    chunk("IHDR", header),
    chunk("IDAT", idat, idatCrc),
    chunk("IEND"),
  ];
  return concatBytes(parts);
}

/** The parts one after another, in one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array = new Uint8Array(0), crc?: number): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc ?? crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** CRC-32 (ISO 3309, as zlib computes it) of bytes. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
