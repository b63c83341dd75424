/**
 * The PDF text-extraction worker: one document at a time, with pdf.js parsing in this thread (its
 * "fake worker"), so the server's own thread only receives finished page texts and never blocks.
 *
 * It also builds search indexes (normalize.ts), so the server's thread never spends the tens of
 * milliseconds that folding a book takes. Deno needs read permission for every local module a worker
 * loads (npm modules excepted): the permission sets grant src/sources/pdf/, where both files live.
 *
 * pdf.js is told to do nothing it does not need for text: no font faces, no system fonts, no canvas, no
 * wasm, no XFA, no fetching of CMaps or fonts (nothing is ever fetched: the bytes arrive by message).
 * pdf.js 6 no longer evaluates generated code at all (its `isEvalSupported` option is gone).
 */
import os from "node:os";
import { buildIndex } from "./normalize.ts";
import type { WorkerReply, WorkerRequest } from "./worker_protocol.ts";

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;

// stdout carries the MCP protocol in stdio mode: nothing in this thread may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

const pdfjs = await importQuietly(() => import("pdfjs-dist/legacy/build/pdf.mjs"));
const pdfjsCore = await importQuietly(() => import("pdfjs-dist/legacy/build/pdf.worker.mjs"));
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsCore;

/** Pages between two progress messages. */
const PROGRESS_EVERY = 16;
/** Nice value of this thread on Linux, so the server's own thread (nice 0) gets the CPU first. */
const WORKER_NICE = 5;

lowerPriority();

/**
 * Lowers this thread's scheduling priority, where that affects this thread alone (Linux: setpriority on
 * "process 0" is the calling thread) and the permission set allows it (`--allow-sys=setPriority`).
 * Elsewhere, or without the permission, the worker runs at normal priority.
 */
function lowerPriority(): void {
  if (Deno.build.os !== "linux") return;
  if (Deno.permissions.querySync({ name: "sys", kind: "setPriority" }).state !== "granted") return;
  try {
    os.setPriority(WORKER_NICE);
  } catch {
    // not permitted after all: normal priority
  }
}

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

scope.onmessage = async (event) => {
  const request = event.data;
  try {
    if (request.op === "index") {
      const index = buildIndex(request.text);
      const reply: WorkerReply = { id: request.id, kind: "indexed", index };
      scope.postMessage(reply, [index.from.buffer, index.to.buffer]);
      return;
    }
    scope.postMessage(await run(request));
  } catch (error) {
    scope.postMessage({ id: request.id, ...classify(error) });
  }
};

async function run(request: Extract<WorkerRequest, { op: "extract" | "count" }>): Promise<WorkerReply> {
  const { id, bytes, maxPages } = request;
  if (bytes.byteLength === 0) {
    return { id, kind: "failed", reason: "empty", message: "The file is empty (0 bytes): it contains no PDF." };
  }
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
    if (request.op === "count") return { id, kind: "done", pageCount, pages: [] };
    if (pageCount > maxPages) {
      return {
        id,
        kind: "failed",
        reason: "too_large",
        pageCount,
        message: `The PDF has ${pageCount} pages, over the limit of ${maxPages} pages (PDF_MAX_PAGES).`,
      };
    }
    const first = Math.max(1, request.first ?? 1);
    const last = Math.min(pageCount, request.last ?? pageCount);
    const pages: string[] = [];
    for (let n = first; n <= last; n++) {
      pages.push(await pageText(doc, n));
      if (pages.length % PROGRESS_EVERY === 0 && n < last) {
        scope.postMessage({ id, kind: "progress", done: pages.length, total: last - first + 1 });
      }
    }
    return { id, kind: "done", pageCount, pages };
  } catch (error) {
    return { id, ...classify(error) };
  } finally {
    await task.destroy();
  }
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
async function pageText(doc: { getPage(n: number): Promise<PdfPage> }, n: number): Promise<string> {
  const page = await doc.getPage(n);
  try {
    const content = await page.getTextContent({ disableNormalization: true });
    let text = "";
    for (const item of content.items as TextPiece[]) {
      if (item.str) text += item.str;
      if (item.hasEOL) text += "\n";
    }
    return text;
  } catch (error) {
    if (isCircular(error)) throw error;
    // One damaged content stream must not cost the other pages: this page counts as empty.
    return "";
  } finally {
    page.cleanup();
  }
}

interface PdfPage {
  getTextContent(options: { disableNormalization: boolean }): Promise<{ items: unknown[] }>;
  cleanup(): void;
}

function isCircular(error: unknown): boolean {
  return /circular reference|cycle/i.test(String((error as Error)?.message ?? error));
}

/** Maps pdf.js exceptions to the failure vocabulary of types.ts, with a message fit for a caller. */
function classify(error: unknown): Omit<Extract<WorkerReply, { kind: "failed" }>, "id"> {
  const name = (error as Error)?.name ?? "";
  const detail = String((error as Error)?.message ?? error).slice(0, 200);
  if (name === "PasswordException") {
    return {
      kind: "failed",
      reason: "password",
      message: "The PDF is password-protected: it cannot be opened without its user password. " +
        "Save a copy without the password (e.g. qpdf --decrypt --password=... in.pdf out.pdf) and search that.",
    };
  }
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
