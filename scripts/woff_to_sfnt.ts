/**
 * WOFF 1.0 → OpenType (sfnt): the font ships on npm as WOFF; the chart assets carry it unpacked
 * (embed_chart_assets.ts). Each table is zlib-inflated (or copied when stored raw) into a plain sfnt with a fresh
 * table directory.
 * Format: https://www.w3.org/TR/WOFF/ (header 44 bytes, 20-byte table entries).
 */
import { inflateSync } from "node:zlib";

export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) throw new Error("not a WOFF 1.0 font (no wOFF signature)");
  const count = view.getUint16(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const entry = 44 + i * 20;
    const offset = view.getUint32(entry + 4);
    const compressed = view.getUint32(entry + 8);
    const length = view.getUint32(entry + 12);
    const raw = woff.subarray(offset, offset + compressed);
    const data = compressed < length ? new Uint8Array(inflateSync(raw)) : raw;
    if (data.length !== length) throw new Error(`WOFF table ${i} inflates to ${data.length} bytes, not ${length}`);
    return { tag: view.getUint32(entry), checksum: view.getUint32(entry + 16), data };
  });
  const padded = (n: number) => (n + 3) & ~3;
  const out = new Uint8Array(12 + 16 * count + tables.reduce((sum, t) => sum + padded(t.data.length), 0));
  const sfnt = new DataView(out.buffer);
  const power = 2 ** Math.floor(Math.log2(count));
  sfnt.setUint32(0, view.getUint32(4));
  sfnt.setUint16(4, count);
  sfnt.setUint16(6, power * 16);
  sfnt.setUint16(8, Math.log2(power));
  sfnt.setUint16(10, count * 16 - power * 16);
  let position = 12 + 16 * count;
  tables.forEach((table, i) => {
    const record = 12 + 16 * i;
    sfnt.setUint32(record, table.tag);
    sfnt.setUint32(record + 4, table.checksum);
    sfnt.setUint32(record + 8, position);
    sfnt.setUint32(record + 12, table.data.length);
    out.set(table.data, position);
    position += padded(table.data.length);
  });
  return out;
}
