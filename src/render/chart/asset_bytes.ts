/** The bytes an asset module in ./assets carries (gzipped, base64-encoded by scripts/embed_chart_assets.ts). */
import { gunzipSync } from "node:zlib";

export function assetBytes(gzipBase64: string): Uint8Array {
  return new Uint8Array(gunzipSync(Uint8Array.fromBase64(gzipBase64)));
}
