/**
 * One extraction job, whichever thread runs it: PDFium (WebAssembly, pdfium_engine.ts) reads the document; pdf.js
 * (pdfjs_engine.ts) reads it instead when PDFium cannot open it, cannot load one of its pages, or gives a
 * doubtful text that pdf.js reads better (text_quality.ts: e.g. no text, or a broken ToUnicode CMap). Each engine
 * is loaded on the first document that needs it, never before. A damaged page costs that page only: the others
 * are salvaged and the broken ones reported. Index jobs build search indexes (normalize.ts), so the server's thread
 * never spends the tens of milliseconds that folding a book takes.
 *
 * The extractor process (extract_child.ts) runs these jobs on its main thread and hands pdf.js to a worker, which
 * it watches; a worker of the server (pdf_worker.ts, where no process may be started) runs both engines itself.
 */
import { buildIndex } from "./normalize.ts";
import { readWithPdfium } from "./pdfium_engine.ts";
import { better, doubtful, garbled, scoreText } from "./text_quality.ts";
import type { EngineResult, PageJob, Progress, TextEngine, WorkerReply, WorkerRequest } from "./worker_protocol.ts";

/** Pages between two progress messages. */
export const PROGRESS_EVERY = 16;

/** Reads a page job with pdf.js, wherever it runs. */
export type ReadPdfjs = (job: PageJob, progress: Progress) => Promise<EngineResult>;

/** The final reply to `request`; `progress` hears of pages done on the way. Never throws. */
export async function answer(request: WorkerRequest, progress: Progress, pdfjs: ReadPdfjs): Promise<WorkerReply> {
  try {
    if (request.op === "index") return { id: request.id, kind: "indexed", index: buildIndex(request.text) };
    if (request.op === "render") {
      const { renderPage } = await import("./pdfium_render.ts");
      return await renderPage(request);
    }
    return await extract(request, progress, pdfjs);
  } catch (error) {
    const detail = String((error as Error)?.message ?? error).slice(0, 200);
    return { id: request.id, kind: "failed", reason: "corrupt", message: `The file cannot be read: ${detail}` };
  }
}

/** The buffers a reply can give away instead of copying (its index arrays, its PNG). */
export function transferables(reply: WorkerReply): ArrayBuffer[] {
  if (reply.kind === "indexed" || (reply.kind === "done" && reply.index)) {
    const index = reply.index!;
    return [index.from.buffer as ArrayBuffer, index.to.buffer as ArrayBuffer];
  }
  return reply.kind === "rendered" ? [reply.png.buffer as ArrayBuffer] : [];
}

/**
 * The characters src/core/control_chars.ts removes from everything retrieved (C0 but tab and line ends,
 * DEL and C1, direction embeddings, overrides and isolates). Repeated here: the extractor process may
 * read src/sources/pdf/ only (extractor_process.ts).
 */
// deno-lint-ignore no-control-regex -- control characters are what it removes
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

async function extract(request: PageJob, progress: Progress, pdfjs: ReadPdfjs): Promise<WorkerReply> {
  const { id } = request;
  if (request.bytes.byteLength === 0) {
    return { id, kind: "failed", reason: "empty", message: "The file is empty (0 bytes): it contains no PDF." };
  }
  // The extractor process's worker reads with pdf.js alone; the process compares, cleans and indexes.
  if (request.engine === "pdf.js") return { id, ...await pdfjs(request, progress) };
  let engine: TextEngine = "pdfium";
  let result = await readWithPdfium(request, progress, PROGRESS_EVERY);
  if (!result || secondOpinion(result, request.images === true)) {
    const other = await pdfjs(request, progress);
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

/**
 * Whether PDFium's extracted text is doubtful enough to ask pdf.js (probes are never doubted). A thin text in a file
 * with images is a scan's: on every such file of the corpus pdf.js read the same few characters or fewer, for
 * ~250 ms of CPU, so only a garbled one is read again.
 */
function secondOpinion(result: EngineResult, images: boolean): boolean {
  if (result.kind !== "done" || result.pages.length === 0) return false;
  const score = scoreText(result.pages);
  return images ? garbled(score) : doubtful(score, result.pages.length);
}

/** Whether pdf.js's reading of a document PDFium read doubtfully is the one to keep. */
function preferred(other: EngineResult, pdfium: EngineResult): boolean {
  if (other.kind !== "done" || pdfium.kind !== "done") return false;
  const unreadable = new Set(other.unreadable.map((u) => u.page));
  return better(scoreText(other.pages.filter((_, i) => !unreadable.has(other.first + i))), scoreText(pdfium.pages));
}
