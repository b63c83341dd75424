import assert from "node:assert/strict";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };
import { RESVG_WASM_GZIP_BASE64 } from "../../../src/render/chart/assets/resvg_wasm.ts";
import { assetBytes } from "../../../src/render/chart/asset_bytes.ts";
import { FONT_ASSETS } from "../../../scripts/embed_chart_assets.ts";
import { woffToSfnt } from "../../../scripts/woff_to_sfnt.ts";

Deno.test("the embedded rasteriser and fonts are byte for byte the pinned npm packages' files (fonts unpacked from WOFF)", async () => {
  // If this fails after a version bump in deno.json: deno run --allow-write=src/render/chart/assets scripts/embed_chart_assets.ts
  assert.deepEqual(assetBytes(RESVG_WASM_GZIP_BASE64), resvgWasm);
  for (const [file, name, woff, bytes, gzip] of FONT_ASSETS) {
    const module = await import(`../../../src/render/chart/assets/${file}`);
    assert.deepEqual(gzip ? assetBytes(module[name]) : Uint8Array.fromBase64(module[name]), woffToSfnt(bytes), woff);
  }
});
