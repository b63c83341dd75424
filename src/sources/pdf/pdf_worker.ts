/**
 * The extraction worker: runs jobs (jobs.ts) one message at a time. In an extractor process (extract_child.ts) it
 * reads with pdf.js only, the jobs PDFium could not read on the process's main thread, which watches its memory
 * meanwhile; where no process may be started it is a worker of the server itself (worker_pool.ts) and runs whole
 * jobs, both engines. Deno needs read permission for every local module a worker loads (npm modules excepted): the
 * extractor process is granted its own folder, src/sources/pdf/, which also holds PDFium's embedded wasm (assets/),
 * and src/render/png_file.ts.
 */
import os from "node:os";
import { answer, PROGRESS_EVERY, type ReadPdfjs, transferables } from "./jobs.ts";
import { provideEmbeddedPdfium } from "./pdfium_engine.ts";
import type { WorkerReply, WorkerRequest } from "./worker_protocol.ts";

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;

// PDFium's embedded copy by a literal import, so that compiled binaries and bundles, whose workers read PDFs with
// it where raw imports are off, carry it (pdfium_engine.ts).
provideEmbeddedPdfium(() => import("./assets/pdfium_wasm.ts"));

/**
 * pdf.js in this thread, imported on first use. Its import lives here, not in jobs.ts, which the extractor process
 * loads too: Deno walks every literal import of a process's modules, dynamic ones included, when it starts, and
 * resolving pdf.js's npm package cost each extractor ~8 ms of CPU before its first job (#36).
 */
const pdfjsHere: ReadPdfjs = async (job, progress) => {
  const { readWithPdfjs } = await import("./pdfjs_engine.ts");
  return await readWithPdfjs(job, progress, PROGRESS_EVERY);
};

// stdout carries the MCP protocol in stdio mode: nothing in this thread may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

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
  const progress = (done: number, total: number) =>
    scope.postMessage({ id: request.id, kind: "progress", done, total });
  const reply = await answer(request, progress, pdfjsHere);
  scope.postMessage(reply, transferables(reply));
};
