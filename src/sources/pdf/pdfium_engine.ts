/**
 * PDFium compiled to WebAssembly (`@embedpdf/pdfium`), the extractor's first text engine. Its wasm module is
 * the pinned package's own file, imported as bytes (no file read: the extractor process may read
 * src/sources/pdf/ and nothing else); where raw imports are not enabled, the copy embedded in ./assets
 * (gzipped base64, made by scripts/embed_pdf_assets.ts). The package's JavaScript is not used: pdfium_host.ts
 * gives the module its imports. It is compiled on the first document a process reads, never in the server.
 * One document at a time per thread.
 */
import { composeAccents, hasSpacingAccent } from "./accents.ts";
import { memoryMessage, PASSWORD_MESSAGE } from "./engine.ts";
import { instantiatePdfium, type Pdfium } from "./pdfium_host.ts";
import { type EngineResult, type PageJob, pageRange, type Progress } from "./worker_protocol.ts";

/**
 * The package's wasm. A variable, not a literal, so that `deno bundle` leaves it out (the bundle carries the
 * embedded copy) rather than inlining a second, larger copy that every extractor would parse.
 */
const PDFIUM_WASM = "npm:@embedpdf/pdfium@2.15.1/pdfium.wasm";

/**
 * PDFium's wasm bytes. The package's file imported as bytes costs ~10 ms of CPU; the embedded copy ~50 ms
 * (parsing a 2.85 MB module, inflating it), paid by each extractor process: it is the fallback, for a Deno
 * run without raw imports (`--unstable-raw-imports`, which the extractor process is given).
 */
export async function pdfiumWasm(): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const bytes: Uint8Array<ArrayBuffer> = (await import(PDFIUM_WASM, { with: { type: "bytes" } })).default;
    // Detached once the engine has compiled it (pdfiumModule): the embedded copy is the same bytes.
    if (!bytes.buffer.detached) return bytes;
  } catch {
    // no raw imports: the embedded copy
  }
  return await embeddedPdfiumWasm();
}

/** The module that carries the embedded copy. */
type PdfiumAsset = typeof import("./assets/pdfium_wasm.ts");

/**
 * How the embedded copy's module is imported. By default through a computed specifier: Deno reads every module a
 * process's code names literally, dynamic imports included, when the process starts, and an extractor process
 * (which has raw imports and never loads this one) spent ~4–8 ms of CPU reading and hashing its 2.85 MB (#36).
 * pdf_worker.ts provides a literal import instead ({@link provideEmbeddedPdfium}), so that `deno compile` and
 * `deno bundle` carry the copy for the worker thread; `deno task bundle` writes it beside the bundled extractor too
 * (dist/assets/).
 */
let importAsset = (): Promise<PdfiumAsset> => import(ASSET);
const ASSET: string = "./assets/pdfium_wasm.ts";

/** Makes the engine import the embedded copy with `load` (a literal import in the caller's module). */
export function provideEmbeddedPdfium(load: () => Promise<PdfiumAsset>): void {
  importAsset = load;
}

/** The bytes the asset module carries (the package's pdfium.wasm). */
export async function embeddedPdfiumWasm(): Promise<Uint8Array<ArrayBuffer>> {
  // node:zlib only here: loading it costs each extractor ~4 ms of CPU that the raw import does not need (#36).
  const [{ PDFIUM_WASM_GZIP_BASE64 }, { gunzipSync }] = await Promise.all([importAsset(), import("node:zlib")]);
  return new Uint8Array(gunzipSync(Uint8Array.fromBase64(PDFIUM_WASM_GZIP_BASE64)));
}

export type { Pdfium };

/** FPDF_GetLastError's code for a document that needs a password it was not given (fpdfview.h). */
const ERR_PASSWORD = 4;
/** Ours, not PDFium's: the document's bytes did not fit under the memory cap. */
const ERR_MEMORY = -1;

let loading: Promise<Pdfium> | undefined;
/** PDFium compiled, once per process: a fresh instance (after a crash) is made from it without compiling again. */
let compiled: Promise<WebAssembly.Module> | undefined;

/** The cap on PDFium's memory set by {@link limitPdfiumMemory}, in wasm pages of 64 KiB, and the budget it serves. */
let memoryLimit: { pages: number; budgetMb: number } | undefined;
/** Whether PDFium asked for more memory than its cap since the last document started. */
let exhausted = false;

/**
 * Caps the memory PDFium's instance may grow to at `wasmMb` MiB; `budgetMb` is the process's whole budget, which a
 * refusal names. The extractor process (extract_child.ts) reads PDFs with PDFium on its main thread, which cannot
 * watch its own memory while a page is read: a decompression bomb inflating inside PDFium instead meets this cap
 * (the wasm module's declared maximum, enforced by V8), its allocation fails and the document is refused. Call it
 * before the first document.
 */
export function limitPdfiumMemory(wasmMb: number, budgetMb: number): void {
  memoryLimit = { pages: Math.max(1, Math.floor(wasmMb * 16)), budgetMb };
}

/**
 * PDFium's module, compiled synchronously on first use; only ever in an extractor process or a worker, never on
 * the server's thread. The imported bytes are capped in place ({@link limitPdfiumMemory}) and then let go
 * (their buffer detached): V8 keeps its own copy of the module for compiling functions lazily, and the import
 * would otherwise hold a second 4.6 MB, resident for the extractor's whole life (#36). So the raw import is
 * consumed: in this isolate {@link pdfiumWasm} gives the embedded copy afterwards.
 */
function pdfiumModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const bytes = await pdfiumWasm();
    if (memoryLimit) capMemoryMaximum(bytes, memoryLimit.pages);
    const module = new WebAssembly.Module(bytes);
    bytes.buffer.transfer(0);
    return module;
  })();
  return compiled;
}

/** The process's PDFium instance, loaded on first use (also drawn with by pdfium_render.ts). */
export function pdfium(): Promise<Pdfium> {
  loading ??= (async () => {
    const lib = instantiatePdfium(await pdfiumModule(), {
      onGrowRefused: () => exhausted = true,
      // PDFium's own messages; an abort's is the error it throws.
      print: (text) => {
        if (!/^Aborted\(/.test(text)) console.error(`PDFium: ${text}`);
      },
    });
    lib.PDFiumExt_Init();
    return lib;
  })();
  return loading;
}

/**
 * Lets a wasm module's (one, exported) memory grow to `pages` at most, where it declared more: its memory section's
 * maximum is rewritten in place, in as many LEB128 bytes as before (padded), so no offset moves. Returns whether it
 * changed the bytes (not when the module is not laid out that way or declares less).
 */
export function capMemoryMaximum(bytes: Uint8Array, pages: number): boolean {
  const reader = { at: 8 };
  const leb = () => {
    let value = 0;
    for (let shift = 0;; shift += 7) {
      const byte = bytes[reader.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  while (reader.at < bytes.length) {
    const id = bytes[reader.at++];
    const size = leb();
    const end = reader.at + size;
    if (id === 5) {
      if (leb() !== 1 || bytes[reader.at++] !== 1) return false; // one memory, with a maximum (flags 1)
      leb(); // its minimum
      const at = reader.at;
      if (leb() <= pages) return false;
      const width = reader.at - at;
      if (pages >= 2 ** (7 * width)) return false;
      for (let i = 0; i < width; i++) {
        bytes[at + i] = ((pages / 2 ** (7 * i)) & 0x7f) | (i < width - 1 ? 0x80 : 0);
      }
      return true;
    }
    reader.at = end;
  }
  return false;
}

/**
 * PDFium could not open the document; `password` when it needs one it was not given (an unsupported
 * security handler is not that: pdf.js gets a try).
 */
export class PdfiumOpenError extends Error {
  override name = "PdfiumOpenError";
  constructor(readonly code: number) {
    super(`PDFium could not open the document (error ${code})`);
  }
  get password(): boolean {
    return this.code === ERR_PASSWORD;
  }
}

export interface PdfiumDocument {
  readonly pageCount: number;
  /** Page n's text (1-based), line ends as "\n"; throws when the page cannot be loaded. */
  pageText(n: number): string;
  /** Loads page n and lets it go (the probe's check); throws when it cannot be loaded. */
  openPage(n: number): void;
  close(): void;
}

/** Opens `bytes` (copied into the wasm heap; the caller's array is left alone). */
export async function openPdfium(bytes: Uint8Array): Promise<PdfiumDocument> {
  const lib = await pdfium();
  const at = lib.malloc(bytes.byteLength);
  if (!at) throw new PdfiumOpenError(ERR_MEMORY);
  lib.heap().set(bytes, at);
  const doc = lib.FPDF_LoadMemDocument(at, bytes.byteLength, 0);
  if (!doc) {
    const code = lib.FPDF_GetLastError();
    lib.free(at);
    throw new PdfiumOpenError(code);
  }
  const loadPage = (n: number): number => {
    const page = lib.FPDF_LoadPage(doc, n - 1);
    if (!page) throw new Error(`PDFium could not load page ${n}`);
    return page;
  };
  return {
    pageCount: lib.FPDF_GetPageCount(doc),
    openPage: (n) => lib.FPDF_ClosePage(loadPage(n)),
    pageText(n) {
      const page = loadPage(n);
      try {
        const text = loadedPageText(lib, page);
        if (text === undefined) throw new Error(`PDFium could not read the text of page ${n}`);
        return text;
      } finally {
        lib.FPDF_ClosePage(page);
      }
    },
    close() {
      lib.FPDF_CloseDocument(doc);
      lib.free(at);
    },
  };
}

/**
 * The text of a loaded page (a `FPDF_LoadPage` handle), tidied; undefined when PDFium has no text layer for it.
 * The text reader and the page renderer (pdfium_render.ts) both read pages through it.
 */
export function loadedPageText(lib: Pdfium, page: number): string | undefined {
  const text = lib.FPDFText_LoadPage(page);
  if (!text) return undefined;
  try {
    const count = lib.FPDFText_CountChars(text);
    if (count <= 0) return "";
    const buffer = lib.malloc((count + 1) * 2);
    try {
      const written = lib.FPDFText_GetText(text, 0, count, buffer);
      const raw = lib.utf16(buffer, Math.max(0, written - 1) * 2);
      return tidy(hasSpacingAccent(raw) ? withAccentsJoined(raw, lib, text) : raw);
    } finally {
      lib.free(buffer);
    }
  } finally {
    lib.FPDFText_ClosePage(text);
  }
}

/**
 * `raw` (the text of a loaded text page, a `FPDFText_LoadPage` handle) with its spacing accents joined to their
 * letters (accents.ts), which asks PDFium about those few characters only. Boxes come back through a scratch area
 * of the wasm heap, allocated once per page.
 */
function withAccentsJoined(raw: string, pdf: Pdfium, text: number): string {
  const scratch = pdf.malloc(32);
  if (!scratch) return raw;
  try {
    return composeAccents(raw, {
      charIndex: (index) => pdf.FPDFText_GetCharIndexFromTextIndex(text, index),
      textIndex: (index) => pdf.FPDFText_GetTextIndexFromCharIndex(text, index),
      unicode: (index) => pdf.FPDFText_GetUnicode(text, index),
      fontSize: (index) => pdf.FPDFText_GetFontSize(text, index),
      charAt: (x, y, tolerance) => pdf.FPDFText_GetCharIndexAtPos(text, x, y, 2 * tolerance, 2 * tolerance),
      box(index) {
        if (!pdf.FPDFText_GetCharBox(text, index, scratch, scratch + 8, scratch + 16, scratch + 24)) return undefined;
        const [left, right, bottom, top] = new Float64Array(pdf.heap().buffer, scratch, 4);
        return { left, right, bottom, top };
      },
    });
  } finally {
    pdf.free(scratch);
  }
}

/**
 * Reads the job's pages (or, for a probe, loads them) with PDFium. Undefined when pdf.js should read the
 * document instead: PDFium cannot open it (a password excepted: pdf.js could not either), or cannot load one
 * of its pages (pdf.js salvages around broken pages and says why they are broken).
 */
export async function readWithPdfium(
  job: PageJob,
  progress: Progress,
  every: number,
): Promise<EngineResult | undefined> {
  exhausted = false;
  let doc: PdfiumDocument;
  try {
    doc = await openPdfium(job.bytes);
  } catch (error) {
    discardAfterCrash(error);
    if (error instanceof PdfiumOpenError && error.password) {
      return { kind: "failed", reason: "password", message: PASSWORD_MESSAGE };
    }
    return overMemory() ?? undefined;
  }
  try {
    const pageCount = doc.pageCount;
    if (pageCount > job.maxPages) {
      return {
        kind: "failed",
        reason: "too_large",
        pageCount,
        message: `The PDF has ${pageCount} pages, over the limit of ${job.maxPages} pages (PDF_MAX_PAGES).`,
      };
    }
    const [first, last] = pageRange(pageCount, job);
    const pages: string[] = [];
    for (let n = first; n <= last; n++) {
      try {
        if (job.op === "probe") doc.openPage(n);
        else pages.push(doc.pageText(n));
      } catch (error) {
        discardAfterCrash(error);
        return overMemory() ?? undefined;
      }
      const done = n - first + 1;
      if (done % every === 0 && n < last) {
        progress(done, pageCount);
        // A turn of the event loop, so the progress is sent (and the process's memory watch runs) mid-document.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    // An allocation PDFium survived (a stream it then skipped) still means the document went over the cap.
    return overMemory() ?? { kind: "done", pageCount, first, pages, unreadable: [] };
  } finally {
    if (loading) doc.close();
  }
}

/**
 * The refusal of a document that made PDFium ask for more memory than its cap ({@link limitPdfiumMemory}), or
 * undefined when it did not: pdf.js would only inflate the same streams into JavaScript memory.
 */
function overMemory(): EngineResult | undefined {
  if (!exhausted || !memoryLimit) return undefined;
  loading = undefined; // an allocation failed mid-way: nothing in that instance can be trusted
  return { kind: "failed", reason: "too_large", message: memoryMessage(memoryLimit.budgetMb) };
}

/**
 * After a trap inside the wasm module (out of its memory, an abort), its state cannot be trusted: the next
 * document gets a fresh instance.
 */
function discardAfterCrash(error: unknown): void {
  if (error instanceof WebAssembly.RuntimeError || /abort/i.test(String((error as Error)?.message))) {
    loading = undefined;
  }
}

/**
 * PDFium's text as pdf.js gave it: line ends "\r\n" as "\n"; the hyphen PDFium marks as a soft line-end
 * break (U+FFFE, or U+0002 in older builds, with the line end itself dropped) as a hyphen and a line end,
 * which search folds like any line-end hyphen (normalize.ts: "com-\npile" = "compile"); control characters
 * (the code of a glyph that maps to no character, such as a bullet in a symbol font) dropped, as pdf.js did.
 */
// deno-lint-ignore no-control-regex -- control characters are what it removes
const CONTROLS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g;

export function tidy(text: string): string {
  // deno-lint-ignore no-control-regex -- PDFium's soft-hyphen markers
  return text.replace(/\r\n?/g, "\n").replace(/[\uFFFE\u0002]/g, "-\n").replace(CONTROLS, "");
}
