/**
 * The two ways a pool slot can run the text engines: an extractor process (extract_child.ts), which a time budget
 * or a memory cap ends for real by killing its pid, or — where no process may be started (the compiled
 * binary, a permission set without `run`) — a worker thread of the server, as before. Both speak the
 * messages of worker_protocol.ts.
 */
import os from "node:os";
import type { Logger } from "../../core/log.ts";
import { release } from "./release.ts";
import {
  decodeReply,
  readFrame,
  requestParts,
  streamInto,
  type WorkerReply,
  type WorkerRequest,
} from "./worker_protocol.ts";

export interface ChannelEvents {
  onReply(reply: WorkerReply): void;
  /** The process or worker ended or failed on its own; `detail` says how. */
  onExit(detail: string): void;
}

export interface Channel {
  send(request: WorkerRequest): void;
  /** Ends it at once (SIGKILL for a process). */
  kill(): void;
  /**
   * Whether it keeps this process alive: only while it runs a job. An idle extractor never holds a server
   * up whose listener has closed (`deno serve` on SIGTERM); once the server exits, the extractor's stdin
   * ends and it exits too.
   */
  hold?(busy: boolean): void;
  /** The extractor process's pid; undefined for a worker thread. */
  readonly pid?: number;
}

/**
 * Starts one slot. `light`: the slot is started for small documents, which a wasm engine without its optimising
 * tier reads for less CPU in all (see {@link processChannels}); a channel that cannot tell ignores it.
 */
export type ChannelFactory = (events: ChannelEvents, kind?: { light?: boolean }) => Channel;

export interface ProcessOptions {
  /** The Deno executable to start (Deno.execPath(), or "deno" as the permission set names it). */
  command: string;
  /** Resident memory budget of one extractor process, in MiB (its V8 heap gets half). */
  memoryMb: number;
  log?: Logger;
  /** Overrides the child's module (tests). */
  moduleUrl?: URL;
}

const CHILD_MODULE = new URL("./extract_child.ts", import.meta.url);
/** The one module outside its folder the extractor loads: the PNG container a rendered page is written in. */
const PNG_FILE = new URL("../../render/png_file.ts", import.meta.url);
/**
 * Nice value of an extractor process on Linux: its work (indexing ahead in particular) runs beside the
 * server, which answers from its caches and must not wait for it.
 */
const EXTRACTOR_NICE = 10;

/**
 * The `deno` arguments of an extractor process (a light one: see {@link ChannelFactory}), with the least it needs:
 * read access to its own folder and PNG_FILE.
 */
export function extractorArgs(options: Pick<ProcessOptions, "memoryMb" | "moduleUrl">, light: boolean): string[] {
  const module = options.moduleUrl ?? CHILD_MODULE;
  const folder = decodeURIComponent(new URL(".", module).pathname);
  return [
    "run",
    "--quiet",
    "--no-prompt",
    // PDFium's wasm is imported as bytes (pdfium_engine.ts), whatever config file the child finds.
    "--unstable-raw-imports",
    // The heap cap; no background threads of V8's own (--single-threaded: compilation, tier-up and GC run on the
    // main thread): a paper read in a fresh extractor costs 10–16 % less CPU, five in a row 10 % less, a 352-page
    // book as much (#36). For a light slot also Liftoff only (no TurboFan tier-up of PDFium's wasm): tier-up costs
    // a first paper ~130 ms of CPU that its 10–20 pages never win back (Liftoff code reads ~1.6 ms/page slower),
    // while a book or a long run of documents wins it back (docs/benchmarks.md, "extractor stages"). A higher
    // tiering budget moves CPU from papers to books (a paper −21 %, the 352-page book after it +15 %, #36).
    // A young generation of 1 MB semi-spaces: the text of a page or a reply is short-lived, and V8's default
    // lets the new space grow to several MB of resident pages in every extractor: peak RSS over three papers
    // −1.5 to −2.5 MiB, their CPU unchanged (20 interleaved rounds, #36).
    `--v8-flags=--max-old-space-size=${
      Math.max(64, Math.floor(options.memoryMb / 2))
    },--single-threaded,--max-semi-space-size=1${light ? ",--liftoff-only" : ""}`,
    `--allow-read=${folder},${decodeURIComponent(PNG_FILE.pathname)}`,
    module.href,
    `--memory-mb=${options.memoryMb}`,
  ];
}

/** Starts an extractor process per slot ({@link extractorArgs}). */
export function processChannels(options: ProcessOptions): ChannelFactory {
  return (events, kind) => {
    const child = new Deno.Command(options.command, {
      args: extractorArgs(options, kind?.light ?? false),
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    child.unref();
    lowerPriority(child.pid);
    const writer = child.stdin.getWriter();
    let alive = true;
    const end = (detail: string) => {
      if (!alive) return;
      alive = false;
      events.onExit(detail);
    };
    (async () => {
      // Each reply read straight into a buffer of its size, decoded (what is kept is copied), then given back.
      const read = streamInto(child.stdout);
      for (let frame = await readFrame(read); frame; frame = await readFrame(read)) {
        events.onReply(decodeReply(frame.message, frame.binary));
        release(frame.binary);
      }
    })().catch(() => {});
    child.status.then(
      (status) => end(`the PDF extractor process exited (${status.signal ?? `status ${status.code}`})`),
      (error) => end(`the PDF extractor process failed: ${error}`),
    );
    return {
      pid: child.pid,
      hold: (busy) => busy ? child.ref() : child.unref(),
      send(request) {
        // Head and document written one after the other (requestParts): no copy of the document to hold.
        for (const part of requestParts(request)) {
          writer.write(part).catch((error) => {
            options.log?.warn("PDF extractor process: could not send a request", { error: String(error) });
            end(`the PDF extractor process did not accept the request: ${error}`);
          });
        }
      },
      kill() {
        alive = false;
        writer.close().catch(() => {});
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
      },
    };
  };
}

/**
 * Lowers a just-started extractor's priority where the permission set allows it (`--allow-sys=setPriority`).
 * On Linux a nice value is per thread: set this early, it is inherited by the threads the process starts.
 */
function lowerPriority(pid: number): void {
  if (Deno.permissions.querySync({ name: "sys", kind: "setPriority" }).state !== "granted") return;
  try {
    os.setPriority(pid, EXTRACTOR_NICE);
  } catch {
    // gone already, or not permitted after all: normal priority
  }
}

/** Runs pdf_worker.ts as a worker thread of this process (fallback; see the module comment). */
export function workerChannels(options: { log?: Logger; workerUrl?: URL } = {}): ChannelFactory {
  const url = options.workerUrl ?? new URL("./pdf_worker.ts", import.meta.url);
  return (events) => {
    const worker = new Worker(url, { type: "module", name: "pdf-extractor" });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => events.onReply(event.data);
    worker.onerror = (event: ErrorEvent) => {
      // Without preventDefault an error in a worker would end the whole server.
      event.preventDefault();
      options.log?.error("PDF worker failed", { error: event.message });
      worker.terminate();
      events.onExit(`the PDF extraction worker failed: ${event.message}`);
    };
    return {
      send(request) {
        if ("bytes" in request && request.bytes) {
          const bytes = request.bytes.slice(); // a copy of its own, moved to the worker
          worker.postMessage({ ...request, bytes }, [bytes.buffer]);
        } else {
          worker.postMessage(request);
        }
      },
      kill: () => worker.terminate(),
    };
  };
}
