import assert from "node:assert/strict";
import wasm from "@embedpdf/pdfium/pdfium.wasm" with { type: "bytes" };
import { embeddedPdfiumWasm, pdfiumWasm } from "../../../src/sources/pdf/pdfium_engine.ts";

Deno.test("the embedded PDFium is byte for byte the pinned npm package's pdfium.wasm", async () => {
  // After a version bump in deno.json: deno run --allow-write=src/sources/pdf/assets scripts/embed_pdf_assets.ts
  assert.deepEqual(await embeddedPdfiumWasm(), wasm);
});

Deno.test("the engine loads the package's pdfium.wasm itself where raw imports are enabled", async () => {
  assert.deepEqual(await pdfiumWasm(), wasm);
});

Deno.test("without raw imports the engine falls back to the embedded copy, the same bytes", async () => {
  const engine = new URL("../../../src/sources/pdf/pdfium_engine.ts", import.meta.url).href;
  const script = `const { pdfiumWasm } = await import(${JSON.stringify(engine)});
    const digest = await crypto.subtle.digest("SHA-256", await pdfiumWasm());
    console.log(new Uint8Array(digest).toHex());`;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", "--quiet", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
  const expected = new Uint8Array(await crypto.subtle.digest("SHA-256", wasm)).toHex();
  assert.equal(new TextDecoder().decode(run.stdout).trim(), expected);
});
