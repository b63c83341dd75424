/**
 * PDFium's memory cap (pdfium_engine.ts limitPdfiumMemory): the extractor process reads with PDFium on its main
 * thread, which cannot watch its own memory mid-page, so a decompression bomb must be stopped by the wasm memory's
 * declared maximum. This module holds the process's only PDFium instance (each test module runs in its own isolate).
 */
import assert from "node:assert/strict";
import { decompressionBomb } from "../../../scripts/hostile_pdfs.ts";
import {
  capMemoryMaximum,
  limitPdfiumMemory,
  pdfium,
  pdfiumWasm,
  readWithPdfium,
} from "../../../src/sources/pdf/pdfium_engine.ts";
import { tinyPdf } from "./tiny_pdf.ts";

/** The memory section's maximum of a wasm module, in pages (undefined without one). */
function declaredMaximum(bytes: Uint8Array): number | undefined {
  const module = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  const memory = new WebAssembly.Instance(module, stubImports(module)).exports.memory as WebAssembly.Memory;
  try {
    memory.grow(0);
  } catch { /* not growable */ }
  // Grow one page at a time past the minimum until refused: the refusal point is the maximum.
  let pages = memory.buffer.byteLength / 65536;
  for (;;) {
    try {
      memory.grow(1);
      pages++;
    } catch {
      return pages;
    }
  }
}

function stubImports(module: WebAssembly.Module): WebAssembly.Imports {
  const imports: Record<string, Record<string, unknown>> = {};
  for (const { module: name, name: field, kind } of WebAssembly.Module.imports(module)) {
    imports[name] ??= {};
    imports[name][field] = kind === "function" ? () => 0 : undefined;
  }
  return imports as WebAssembly.Imports;
}

Deno.test("capMemoryMaximum lowers PDFium's declared memory maximum in place, without moving a byte", async () => {
  const original = (await pdfiumWasm()).slice();
  const capped = original.slice();
  assert.equal(capMemoryMaximum(capped, 100 * 16), true);
  assert.equal(declaredMaximum(capped), 100 * 16);
  assert.equal(capped.findIndex((byte, i) => byte !== original[i]) > 0, true);
  assert.equal(capped.filter((byte, i) => byte !== original[i]).length <= 5, true, "only the maximum's LEB128 bytes");
  const above = original.slice();
  assert.equal(capMemoryMaximum(above, 4096 * 16), false, "a cap above the declared maximum changes nothing");
  assert.deepEqual(above, original);
});

Deno.test("a decompression bomb read by capped PDFium is refused as too large for memory, without pdf.js", async () => {
  limitPdfiumMemory(96, 192);
  const progress = () => {};
  const bomb = await readWithPdfium({ id: 1, op: "extract", bytes: decompressionBomb(), maxPages: 100 }, progress, 16);
  assert.equal(bomb?.kind, "failed");
  assert.equal(bomb.kind === "failed" && bomb.reason, "too_large");
  assert.match(bomb.kind === "failed" ? bomb.message : "", /more than 192 MB of memory .* decompression bomb/);
  // The next document gets a fresh instance and reads normally under the same cap.
  const next = await readWithPdfium(
    { id: 2, op: "extract", bytes: tinyPdf("after the bomb"), maxPages: 100 },
    progress,
    16,
  );
  assert.equal(next?.kind, "done");
  assert.match(next.kind === "done" ? next.pages.join(" ") : "", /after the bomb/);
});

Deno.test("once compiled, the engine lets go of the imported module bytes and still hands out PDFium's bytes", async () => {
  await pdfium();
  const imported: Uint8Array = (await import("@embedpdf/pdfium/pdfium.wasm", { with: { type: "bytes" } })).default;
  assert.equal(imported.byteLength, 0, "the import's buffer is detached: V8 holds the module's only copy");
  const bytes = await pdfiumWasm();
  assert.equal(bytes.byteLength > 1_000_000, true);
  assert.equal(WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>), true);
});
