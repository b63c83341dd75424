/**
 * The pdf.js thread: one document at a time, with pdf.js parsing in this thread (its "fake worker").
 * It runs inside an extractor process (extract_child.ts), whose main thread stays free to watch memory
 * and to end the whole process when a document runs away; where no process may be started it runs as
 * a worker of the server itself (worker_pool.ts). A damaged page costs that page only: the others are
 * salvaged and the broken ones reported.
 *
 * It also builds search indexes (normalize.ts), so the server's thread never spends the tens of
 * milliseconds that folding a book takes. Deno needs read permission for every local module a worker
 * loads (npm modules excepted): the extractor process is granted its own folder, src/sources/pdf/.
 *
 * pdf.js is told to do nothing it does not need for text: no font faces, no system fonts, no canvas, no
 * wasm, no XFA, no fetching of CMaps or fonts (nothing is ever fetched: the bytes arrive by message).
 * pdf.js 6 no longer evaluates generated code at all (its `isEvalSupported` option is gone).
 */
import os from "node:os";
import { buildIndex } from "./normalize.ts";
import type { UnreadablePage } from "./types.ts";
import { pageRange, type WorkerReply, type WorkerRequest } from "./worker_protocol.ts";

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;

// stdout carries the MCP protocol in stdio mode: nothing in this thread may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

const pdfjs = await importQuietly(() => import("npm:pdfjs-dist@6.5.438/legacy/build/pdf.mjs"));
const pdfjsCore = await importQuietly(() => import("npm:pdfjs-dist@6.5.438/legacy/build/pdf.worker.mjs"));
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
    const reply = await run(request);
    const index = reply.kind === "done" ? reply.index : undefined;
    scope.postMessage(reply, index ? [index.from.buffer, index.to.buffer] : []);
  } catch (error) {
    scope.postMessage({ id: request.id, ...classify(error) });
  }
};

type PageRequest = Extract<WorkerRequest, { op: "extract" | "probe" }>;

async function run(request: PageRequest): Promise<WorkerReply> {
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
    if (pageCount > maxPages) {
      return {
        id,
        kind: "failed",
        reason: "too_large",
        pageCount,
        message: `The PDF has ${pageCount} pages, over the limit of ${maxPages} pages (PDF_MAX_PAGES).`,
      };
    }
    const [first, last] = pageRange(pageCount, request);
    const pages: string[] = [];
    const unreadable: UnreadablePage[] = [];
    let firstError: unknown;
    for (let n = first; n <= last; n++) {
      try {
        pages.push(request.op === "probe" ? await openPage(doc, n) : await pageText(doc, n));
      } catch (error) {
        firstError ??= error;
        pages.push("");
        unreadable.push({ page: n, reason: shortReason(error) });
      }
      if (pages.length % PROGRESS_EVERY === 0 && n < last) {
        scope.postMessage({ id, kind: "progress", done: pages.length, total: pageCount });
      }
    }
    // Nothing to salvage: the document fails as a whole, with the reason of its first broken page. (A part
    // of a split document cannot tell; the extractor judges the parts together.)
    const whole = first === 1 && last === pageCount;
    if (whole && pageCount > 0 && unreadable.length === pageCount) return { id, ...classify(firstError), pageCount };
    if (request.op === "probe") return { id, kind: "done", pageCount, first, pages: [], unreadable };
    const index = request.index ? buildIndex(pages.join("\f")) : undefined;
    return { id, kind: "done", pageCount, first, pages, unreadable, ...(index ? { index } : {}) };
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
