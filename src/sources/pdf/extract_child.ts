/**
 * The extractor process: the server starts it (extractor_process.ts) with a V8 heap cap and read access
 * to this folder only, and sends it framed requests on stdin. The text engines run in a worker of this process
 * (pdf_worker.ts); this main thread only relays frames and watches the process's resident memory, which
 * a worker busy in a synchronous loop cannot do for itself. Over budget (a decompression bomb inflating
 * gigabytes into array buffers, which the heap cap does not count) it answers the running job and exits,
 * so nothing keeps running once the server has its answer. It also exits when the server goes away.
 *
 * Arguments: `--memory-mb=N` (resident memory budget of the whole process).
 */
import { decodeRequest, encodeReply, FrameReader, type WorkerReply, type WorkerRequest } from "./worker_protocol.ts";

/** How often the resident memory is checked. */
const WATCH_MS = 25;
/** Exit status after going over the memory budget (the server reads the reply, not the status). */
const EXIT_OVER_MEMORY = 75;

const memoryMb = Number(Deno.args.find((a) => a.startsWith("--memory-mb="))?.slice("--memory-mb=".length)) || 1024;
const worker = new Worker(new URL("./pdf_worker.ts", import.meta.url), { type: "module", name: "pdf-extractor" });
let running: number | undefined;
let writing = Promise.resolve();

function send(reply: WorkerReply): Promise<void> {
  const frame = encodeReply(reply);
  writing = writing.then(() => writeAll(frame));
  return writing;
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
}

worker.onmessage = (event: MessageEvent<WorkerReply>) => {
  const reply = event.data;
  if (reply.kind !== "progress") {
    running = undefined;
    watch(false);
  }
  // Our stdout is gone only when the server is: nothing left to do.
  send(reply).catch(() => Deno.exit(1));
};
worker.onerror = (event: ErrorEvent) => {
  event.preventDefault();
  console.error(`science-mcp PDF extractor: ${event.message}`);
  Deno.exit(1);
};

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
    await send({
      id: running,
      kind: "failed",
      reason: "too_large",
      message: `Extracting the PDF needed more than ${memoryMb} MB of memory and was stopped: the PDF is ` +
        "probably a decompression bomb (a small compressed stream that inflates to gigabytes) or damaged.",
    }).catch(() => {});
  }
  Deno.exit(EXIT_OVER_MEMORY);
}

const reader = new FrameReader();
for await (const chunk of Deno.stdin.readable) {
  for (const { message, binary } of reader.push(chunk)) {
    const request: WorkerRequest = decodeRequest(message, binary);
    running = request.id;
    watch(true);
    if ("bytes" in request && request.bytes) {
      worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    } else {
      worker.postMessage(request);
    }
  }
}
// The server closed our stdin: it is gone or done with us.
Deno.exit(0);
