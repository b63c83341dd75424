/**
 * The extraction thread: one document at a time. PDFium (WebAssembly, pdfium_engine.ts) reads it; pdf.js
 * (pdfjs_engine.ts) reads it instead when PDFium cannot open it, cannot load one of its pages, or gives a
 * doubtful text that pdf.js reads better (text_quality.ts: e.g. no text, or a broken ToUnicode CMap). Each
 * engine is loaded on the first document that needs it, never before. It runs inside an extractor process
 * (extract_child.ts), whose main thread stays free to watch memory and to end the whole process when a
 * document runs away; where no process may be started it runs as a worker of the server itself
 * (worker_pool.ts). A damaged page costs that page only: the others are salvaged and the broken ones
 * reported.
 *
 * It also builds search indexes (normalize.ts), so the server's thread never spends the tens of
 * milliseconds that folding a book takes. Deno needs read permission for every local module a worker
 * loads (npm modules excepted): the extractor process is granted its own folder, src/sources/pdf/, which
 * also holds PDFium's embedded wasm (assets/).
 */
import os from "node:os";
import { buildIndex } from "./normalize.ts";
import { readWithPdfium } from "./pdfium_engine.ts";
import { better, doubtful, scoreText } from "./text_quality.ts";
import type { EngineResult, PageJob, TextEngine, WorkerReply, WorkerRequest } from "./worker_protocol.ts";

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;

// stdout carries the MCP protocol in stdio mode: nothing in this thread may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

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

scope.onmessage = async (event) => {
  const request = event.data;
  try {
    if (request.op === "index") {
      const index = buildIndex(request.text);
      const reply: WorkerReply = { id: request.id, kind: "indexed", index };
      scope.postMessage(reply, [index.from.buffer, index.to.buffer]);
      return;
    }
    if (request.op === "render") {
      const { renderPage } = await import("./pdfium_render.ts");
      const reply = await renderPage(request);
      scope.postMessage(reply, reply.kind === "rendered" ? [reply.png.buffer as ArrayBuffer] : []);
      return;
    }
    const reply = await run(request);
    const index = reply.kind === "done" ? reply.index : undefined;
    scope.postMessage(reply, index ? [index.from.buffer, index.to.buffer] : []);
  } catch (error) {
    const detail = String((error as Error)?.message ?? error).slice(0, 200);
    scope.postMessage({
      id: request.id,
      kind: "failed",
      reason: "corrupt",
      message: `The file cannot be read: ${detail}`,
    });
  }
};

/**
 * The characters src/core/control_chars.ts removes from everything retrieved (C0 but tab and line ends,
 * DEL and C1, direction embeddings, overrides and isolates). Repeated here: the extractor process may
 * read src/sources/pdf/ only (extractor_process.ts).
 */
// deno-lint-ignore no-control-regex -- control characters are what it removes
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

async function run(request: PageJob): Promise<WorkerReply> {
  const { id } = request;
  if (request.bytes.byteLength === 0) {
    return { id, kind: "failed", reason: "empty", message: "The file is empty (0 bytes): it contains no PDF." };
  }
  const progress = (done: number, total: number) => scope.postMessage({ id, kind: "progress", done, total });
  let engine: TextEngine = "pdfium";
  let result = await readWithPdfium(request, progress, PROGRESS_EVERY);
  if (!result || secondOpinion(result)) {
    const { readWithPdfjs } = await import("./pdfjs_engine.ts");
    const other = await readWithPdfjs(request, progress, PROGRESS_EVERY);
    if (!result || preferred(other, result)) [result, engine] = [other, "pdf.js"];
  }
  if (result.kind === "failed") return { id, ...result };
  // Control and direction characters leave before the text is cached, indexed or paged.
  // Fence marks (render/untrusted.ts) become brackets: the same length, so offsets do not move.
  result = {
    ...result,
    pages: result.pages.map((page) => page.replace(CONTROLS, "").replaceAll("⟦", "[").replaceAll("⟧", "]")),
  };
  const index = request.op === "extract" && request.index ? buildIndex(result.pages.join("\f")) : undefined;
  return { id, ...result, engine, ...(index ? { index } : {}) };
}

/** Whether PDFium's extracted text is doubtful enough to ask pdf.js (probes are never doubted). */
function secondOpinion(result: EngineResult): boolean {
  return result.kind === "done" && result.pages.length > 0 && doubtful(scoreText(result.pages), result.pages.length);
}

/** Whether pdf.js's reading of a document PDFium read doubtfully is the one to keep. */
function preferred(other: EngineResult, pdfium: EngineResult): boolean {
  if (other.kind !== "done" || pdfium.kind !== "done") return false;
  const unreadable = new Set(other.unreadable.map((u) => u.page));
  return better(scoreText(other.pages.filter((_, i) => !unreadable.has(other.first + i))), scoreText(pdfium.pages));
}
