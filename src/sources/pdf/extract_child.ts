/**
 * The extractor process: the server starts it (extractor_process.ts) with a V8 heap cap and read access to this
 * folder only, and sends it framed requests on stdin, one job at a time. Jobs (jobs.ts) run on this main thread:
 * one V8 isolate, no relay, for the PDFium reading nearly every document gets. PDFium's memory is capped (its wasm
 * memory maximum, pdfium_engine.ts): a decompression bomb inflating inside it is refused when an allocation fails.
 * pdf.js, the fallback engine, inflates streams into JavaScript array buffers that the heap cap does not count; it
 * runs in a worker (pdf_worker.ts, started on the first document that needs it) while this thread watches the
 * process's resident memory and, over budget, answers the job and exits, so nothing keeps running once the server
 * has its answer. The process also exits when the server goes away (its stdin ends).
 *
 * Arguments: `--memory-mb=N` (resident memory budget of the whole process).
 */
import { memoryMessage } from "./engine.ts";
import { answer, type ReadPdfjs } from "./jobs.ts";
import { limitPdfiumMemory } from "./pdfium_engine.ts";
import {
  decodeRequest,
  encodeReply,
  type EngineResult,
  readerInto,
  readFrame,
  type WorkerReply,
  type WorkerRequest,
} from "./worker_protocol.ts";

/** How often the resident memory is checked while a job runs. */
const WATCH_MS = 25;
/** Exit status after going over the memory budget (the server reads the reply, not the status). */
const EXIT_OVER_MEMORY = 75;

// stdout carries the frames to the server: nothing else may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

const memoryMb = Number(Deno.args.find((a) => a.startsWith("--memory-mb="))?.slice("--memory-mb=".length)) || 1024;
// Half the budget for PDFium's memory, as the V8 heap gets the other half (extractor_process.ts).
limitPdfiumMemory(Math.floor(memoryMb / 2), memoryMb);

const stdin = readerInto((into) => Deno.stdin.read(into));
let running: number | undefined;
let writing = Promise.resolve();

function send(reply: WorkerReply): Promise<void> {
  const frame = encodeReply(reply);
  writing = writing.then(() => writeAll(frame));
  // Our stdout is gone only when the server is: nothing left to do.
  writing.catch(() => Deno.exit(1));
  return writing;
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
}

let worker: Worker | undefined;
let pdfjsJob: { resolve(result: EngineResult): void; progress(done: number, total: number): void } | undefined;

/** pdf.js in the worker, started on first use; this thread stays free to watch memory meanwhile. */
const pdfjsInWorker: ReadPdfjs = (job, progress) =>
  new Promise((resolve) => {
    pdfjsJob = { resolve, progress };
    const bytes = job.bytes.slice(); // PDFium's reply may still be compared; pdf.js gets its own copy
    pdfjsWorker().postMessage({ ...job, engine: "pdf.js", bytes }, [bytes.buffer]);
  });

function pdfjsWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./pdf_worker.ts", import.meta.url), { type: "module", name: "pdf-extractor" });
  worker.onmessage = (event: MessageEvent<WorkerReply>) => {
    const reply = event.data;
    if (!pdfjsJob) return;
    if (reply.kind === "progress") return pdfjsJob.progress(reply.done, reply.total);
    const { resolve } = pdfjsJob;
    pdfjsJob = undefined;
    const { id: _, ...result } = reply;
    resolve(result as EngineResult);
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    console.error(`science-mcp PDF extractor: ${event.message}`);
    Deno.exit(1);
  };
  return worker;
}

/**
 * Checks the resident memory every {@link WATCH_MS} while a job runs, and only then: an idle extractor must not
 * wake up (a timer firing 40 times a second cost ~10 ms of CPU per second for as long as it stayed alive).
 */
let watchdog: ReturnType<typeof setInterval> | undefined;
function watch(busy: boolean): void {
  if (busy && watchdog === undefined) watchdog = setInterval(checkMemory, WATCH_MS);
  else if (!busy && watchdog !== undefined) {
    clearInterval(watchdog);
    watchdog = undefined;
  }
}

async function checkMemory(): Promise<void> {
  const rss = Deno.memoryUsage().rss;
  if (rss <= memoryMb * 1024 * 1024) return;
  watch(false);
  if (running !== undefined) {
    await send({ id: running, kind: "failed", reason: "too_large", message: memoryMessage(memoryMb) }).catch(() => {});
  }
  Deno.exit(EXIT_OVER_MEMORY);
}

async function run(request: WorkerRequest): Promise<void> {
  const { id } = request;
  running = id;
  watch(true);
  const reply = await answer(request, (done, total) => void send({ id, kind: "progress", done, total }), pdfjsInWorker);
  running = undefined;
  watch(false);
  await send(reply);
}

// Each request is read straight into a buffer of its own size (no stream: each PDF is copied once, not joined).
for (let frame = await readFrame(stdin); frame; frame = await readFrame(stdin)) {
  await run(decodeRequest(frame.message, frame.binary));
}
// The server closed our stdin: it is gone or done with us.
Deno.exit(0);
