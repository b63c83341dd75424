/**
 * pdf.js, the extractor's second text engine: jobs.ts hands it the documents PDFium cannot open, has
 * a page it cannot load, or reads badly (text_quality.ts), and imports it only then. It salvages the pages
 * it can read around broken ones and names why a document fails.
 *
 * pdf.js is told to do nothing it does not need for text: no font faces, no system fonts, no canvas, no
 * wasm, no XFA, no fetching of CMaps or fonts (nothing is ever fetched: the bytes arrive by message).
 * pdf.js 6 no longer evaluates generated code at all (its `isEvalSupported` option is gone). It parses in
 * the calling thread (its "fake worker").
 */
import { PASSWORD_MESSAGE } from "./engine.ts";
import { type EngineResult, type PageJob, pageRange, type Progress } from "./worker_protocol.ts";

const pdfjs = await importQuietly(() => import("npm:pdfjs-dist@6.5.438/legacy/build/pdf.mjs"));
const pdfjsCore = await importQuietly(() => import("npm:pdfjs-dist@6.5.438/legacy/build/pdf.worker.mjs"));
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsCore;

/**
 * Imports pdf.js without its Node-only start-up: it would try to load the optional native canvas addon
 * (`@napi-rs/canvas`) through `require`, which text extraction never uses, and warn when it cannot.
 * `process.getBuiltinModule("module")` is hidden for the duration of the import, and warnings muted.
 */
async function importQuietly<T>(load: () => Promise<T>): Promise<T> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const original = proc?.getBuiltinModule;
  const warn = console.warn;
  if (proc && original) proc.getBuiltinModule = (id) => id === "module" ? undefined : original.call(proc, id);
  console.warn = () => {};
  try {
    return await load();
  } finally {
    if (proc && original) proc.getBuiltinModule = original;
    console.warn = warn;
  }
}

/** Reads the job's pages (or, for a probe, resolves them in the page tree) with pdf.js. */
export async function readWithPdfjs(job: PageJob, progress: Progress, every: number): Promise<EngineResult> {
  const { bytes, maxPages } = job;
  const task = pdfjs.getDocument({
    data: bytes,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    useWasm: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pageCount = doc.numPages;
    if (pageCount > maxPages) return tooManyPages(pageCount, maxPages);
    const [first, last] = pageRange(pageCount, job);
    const pages: string[] = [];
    const unreadable: { page: number; reason: string }[] = [];
    let firstError: unknown;
    for (let n = first; n <= last; n++) {
      try {
        pages.push(job.op === "probe" ? await openPage(doc, n) : await pageText(doc, n));
      } catch (error) {
        firstError ??= error;
        pages.push("");
        unreadable.push({ page: n, reason: shortReason(error) });
      }
      if (pages.length % every === 0 && n < last) progress(pages.length, pageCount);
    }
    // Nothing to salvage: the document fails as a whole, with the reason of its first broken page. (A part
    // of a split document cannot tell; the extractor judges the parts together.)
    const whole = first === 1 && last === pageCount;
    if (whole && pageCount > 0 && unreadable.length === pageCount) return { ...classify(firstError), pageCount };
    return { kind: "done", pageCount, first, pages: job.op === "probe" ? [] : pages, unreadable };
  } catch (error) {
    return classify(error);
  } finally {
    await task.destroy();
  }
}

export function tooManyPages(pageCount: number, maxPages: number): EngineResult {
  return {
    kind: "failed",
    reason: "too_large",
    pageCount,
    message: `The PDF has ${pageCount} pages, over the limit of ${maxPages} pages (PDF_MAX_PAGES).`,
  };
}

interface TextPiece {
  str?: string;
  hasEOL?: boolean;
}

/**
 * One page's text in content-stream order (the reading order of columns in typeset papers), with a line
 * break wherever pdf.js saw the end of a line. Ligature glyphs are kept as they are (normalisation is
 * search's job, so the context it returns is the document's own text).
 */
async function pageText(doc: PdfDoc, n: number): Promise<string> {
  const page = await doc.getPage(n);
  try {
    const content = await page.getTextContent({ disableNormalization: true });
    let text = "";
    for (const item of content.items as TextPiece[]) {
      if (item.str) text += item.str;
      if (item.hasEOL) text += "\n";
    }
    return text;
  } finally {
    page.cleanup();
  }
}

/** Resolves page n in the page tree without reading its content (the probe's cheap check). */
async function openPage(doc: PdfDoc, n: number): Promise<string> {
  (await doc.getPage(n)).cleanup();
  return "";
}

interface PdfDoc {
  getPage(n: number): Promise<PdfPage>;
}

interface PdfPage {
  getTextContent(options: { disableNormalization: boolean }): Promise<{ items: unknown[] }>;
  cleanup(): void;
}

function isCircular(error: unknown): boolean {
  return /circular reference|cycle/i.test(String((error as Error)?.message ?? error));
}

function shortReason(error: unknown): string {
  if (isCircular(error)) return "the page tree is circular";
  return String((error as Error)?.message ?? error).slice(0, 120);
}

/** Maps pdf.js exceptions to the failure vocabulary of types.ts, with a message fit for a caller. */
export function classify(error: unknown): Extract<EngineResult, { kind: "failed" }> {
  const name = (error as Error)?.name ?? "";
  const detail = String((error as Error)?.message ?? error).slice(0, 200);
  if (name === "PasswordException") return { kind: "failed", reason: "password", message: PASSWORD_MESSAGE };
  if (isCircular(error)) {
    return {
      kind: "failed",
      reason: "circular",
      message: `The PDF's page tree is circular (a page node refers back to one of its ancestors): ${detail}`,
    };
  }
  const what = name === "InvalidPDFException" ? "is not a valid PDF" : "is damaged and cannot be parsed";
  return { kind: "failed", reason: "corrupt", message: `The file ${what}: ${detail}` };
}
