import assert from "node:assert/strict";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };
import notoSansLatin from "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff" with { type: "bytes" };
import { RESVG_WASM_GZIP_BASE64 } from "../../../src/render/chart/assets/resvg_wasm.ts";
import { NOTO_SANS_LATIN_WOFF_GZIP_BASE64 } from "../../../src/render/chart/assets/noto_sans_latin.ts";
import { assetBytes } from "../../../src/render/chart/resvg.ts";

Deno.test("the embedded rasteriser and font are byte for byte the pinned npm packages' files", () => {
  // If this fails after a version bump in deno.json: deno run --allow-write=src/render/chart/assets scripts/embed_chart_assets.ts
  assert.deepEqual(assetBytes(RESVG_WASM_GZIP_BASE64), resvgWasm);
  assert.deepEqual(assetBytes(NOTO_SANS_LATIN_WOFF_GZIP_BASE64), notoSansLatin);
});
