/**
 * Writes src/sources/pdf/assets/pdfium_wasm.ts: PDFium compiled to WebAssembly, from its pinned npm package
 * (deno.json), gzipped and base64-encoded into a TypeScript module, so the extractor process (which may read
 * src/sources/pdf/ and nothing else), `deno bundle` and JSR all carry it; the engine falls back to it where raw
 * imports are off (pdfium_engine.ts). tests/sources/pdf/pdfium_asset_test.ts
 * checks that it still matches the package.
 * Run: deno run --allow-write=src/sources/pdf/assets scripts/embed_pdf_assets.ts
 */
import pdfiumWasm from "@embedpdf/pdfium/pdfium.wasm" with { type: "bytes" };
import { assetModule } from "./embed_chart_assets.ts";

if (import.meta.main) {
  Deno.writeTextFileSync(
    new URL("../src/sources/pdf/assets/pdfium_wasm.ts", import.meta.url),
    assetModule(
      "PDFIUM_WASM_GZIP_BASE64",
      "npm:@embedpdf/pdfium@2.15.1/pdfium.wasm",
      "PDFium: BSD-3-Clause; bindings: MIT",
      pdfiumWasm,
    ),
  );
}
