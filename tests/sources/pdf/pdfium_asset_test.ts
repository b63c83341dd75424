import assert from "node:assert/strict";
import wasm from "@embedpdf/pdfium/pdfium.wasm" with { type: "bytes" };
import { pdfiumWasm } from "../../../src/sources/pdf/pdfium_engine.ts";

Deno.test("the embedded PDFium is byte for byte the pinned npm package's pdfium.wasm", () => {
  // After a version bump in deno.json: deno run --allow-write=src/sources/pdf/assets scripts/embed_pdf_assets.ts
  assert.deepEqual(pdfiumWasm(), wasm);
});
