/**
 * A canvas as PNG: 8-bit RGB, rows unfiltered, deflated by the platform's CompressionStream (native code, no module
 * to load: node:zlib's first use cost a server's first chart ~8–10 ms of CPU, #36), in the shared container
 * (../png_file.ts). On charts (flat colours, long runs) filter "None" gave smaller files than "Up"
 * (17–30 KB against 20–35 KB for the five kinds) and needs no pass over the pixels in JavaScript.
 * Format: https://www.w3.org/TR/png/
 */
import { concatBytes, pngFile } from "../png_file.ts";

export async function encodePng(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const stride = width * 3;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row: filter type 0 (None), then its bytes.
    filtered.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const idat = await compress([filtered], "deflate");
  // The IDAT chunk's CRC-32 (of its type and data) is the one a gzip stream of those bytes ends with (RFC 1952), so
  // it too is computed natively.
  const gzip = await compress([IDAT, idat], "gzip");
  return pngFile(width, height, idat, new DataView(gzip.buffer, gzip.byteOffset).getUint32(gzip.length - 8, true));
}

const IDAT = new TextEncoder().encode("IDAT");

/**
 * `chunks` compressed, written and read straight through the stream's own writer and reader ("deflate" is the zlib
 * format of RFC 1950, which an IDAT chunk holds): a Blob, pipeThrough and a Response around it cost a server's first
 * chart ~3 ms more.
 */
async function compress(
  chunks: Uint8Array<ArrayBuffer>[],
  format: CompressionFormat,
): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new CompressionStream(format);
  const writer = stream.writable.getWriter();
  const [, parts] = await Promise.all([
    Promise.all([...chunks.map((chunk) => writer.write(chunk)), writer.close()]),
    readAll(stream.readable.getReader()),
  ]);
  return concatBytes(parts);
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return parts;
}
