/**
 * A small pool of extraction workers (pdf_worker.ts). Jobs queue when every worker is busy; a job that
 * overruns its time budget or is cancelled gets its worker terminated (pdf.js cannot be interrupted
 * mid-page) and a fresh worker replaces it on the next job. Idle workers are ended after a while, so a
 * process that forgot to close the pool still exits, and memory held by pdf.js is returned.
 */
import type { Logger } from "../../core/log.ts";
import { PdfExtractionError } from "./types.ts";
import type { FinalReply, WorkerReply, WorkerRequest } from "./worker_protocol.ts";

export interface PoolOptions {
  /** Concurrent workers (1–2 makes sense: each holds a parsed document in memory). */
  size: number;
  /** Idle time after which a worker is ended. */
  idleMs?: number;
  log?: Logger;
  /** Overrides the worker script (tests). */
  workerUrl?: URL;
}

export interface JobOptions {
  timeoutMs: number;
  /** The whole budget to name in a timeout message, when `timeoutMs` is what remains of it. */
  budgetMs?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** A request without its id (the pool numbers jobs itself). */
export type JobRequest = WorkerRequest extends infer R ? R extends unknown ? Omit<R, "id"> : never : never;

interface Job {
  request: JobRequest;
  options: JobOptions;
  resolve(reply: FinalReply): void;
  reject(error: unknown): void;
}

type Timer = ReturnType<typeof setTimeout>;

interface Slot {
  worker: Worker;
  job?: Job & { id: number; timer: Timer; onAbort: () => void };
  idleTimer?: Timer;
}

const DEFAULT_IDLE_MS = 60_000;

export class WorkerPool {
  readonly #options: PoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: PoolOptions) {
    this.#options = { ...options, size: Math.max(1, options.size) };
  }

  /** Workers alive right now (busy or idle). */
  get workers(): number {
    return this.#slots.size;
  }

  get size(): number {
    return this.#options.size;
  }

  /** Starts workers up to the pool size now, so their start-up overlaps work already under way. */
  warm(): void {
    while (!this.#closed && this.#slots.size < this.#options.size) this.#idle(this.#spawn());
  }

  /** Runs one job; resolves with its final reply, rejects with PdfExtractionError for a bad document. */
  run(request: JobRequest, options: JobOptions): Promise<FinalReply> {
    if (this.#closed) return Promise.reject(new Error("the PDF worker pool is closed"));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<FinalReply>((resolve, reject) => {
      const job: Job = { request, options, resolve, reject };
      this.#queue.push(job);
      options.signal?.addEventListener("abort", () => this.#dropQueued(job), { once: true });
      this.#dispatch();
    });
  }

  close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error("the PDF worker pool was closed"));
    for (const slot of [...this.#slots]) this.#retire(slot, new Error("the PDF worker pool was closed"));
    return Promise.resolve();
  }

  #dropQueued(job: Job): void {
    const at = this.#queue.indexOf(job);
    if (at < 0) return;
    this.#queue.splice(at, 1);
    job.reject(job.options.signal!.reason);
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = [...this.#slots].find((s) => !s.job) ??
        (this.#slots.size < this.#options.size ? this.#spawn() : undefined);
      if (!slot) return;
      this.#start(slot, this.#queue.shift()!);
    }
  }

  #spawn(): Slot {
    const url = this.#options.workerUrl ?? new URL("./pdf_worker.ts", import.meta.url);
    const slot: Slot = { worker: new Worker(url, { type: "module", name: "pdf-extractor" }) };
    slot.worker.onmessage = (event: MessageEvent<WorkerReply>) => this.#onReply(slot, event.data);
    slot.worker.onerror = (event: ErrorEvent) => {
      // Without preventDefault an error in a worker would end the whole server.
      event.preventDefault();
      this.#options.log?.error("PDF worker failed", { error: event.message });
      this.#retire(slot, new Error(`the PDF extraction worker failed: ${event.message}`));
      this.#dispatch();
    };
    this.#slots.add(slot);
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    const id = this.#nextId++;
    const { timeoutMs, budgetMs, signal } = job.options;
    const timer = setTimeout(() => {
      this.#retire(
        slot,
        new PdfExtractionError(
          "timeout",
          `Extracting the PDF took longer than ${budgetMs ?? timeoutMs} ms (PDF_TIMEOUT_MS) and was stopped.`,
        ),
      );
      this.#dispatch();
    }, timeoutMs);
    const onAbort = () => {
      this.#retire(slot, signal!.reason);
      this.#dispatch();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    slot.job = { ...job, id, timer, onAbort };
    if (job.request.op === "index") {
      slot.worker.postMessage({ ...job.request, id } satisfies WorkerRequest);
    } else {
      const bytes = ownBuffer(job.request.bytes);
      slot.worker.postMessage({ ...job.request, bytes, id } satisfies WorkerRequest, [bytes.buffer]);
    }
  }

  #onReply(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    if (reply.kind === "progress") {
      job.options.onProgress?.(reply.done, reply.total);
      return;
    }
    this.#finish(slot);
    if (reply.kind === "failed") job.reject(new PdfExtractionError(reply.reason, reply.message, reply.pageCount));
    else job.resolve(reply);
    this.#idle(slot);
    this.#dispatch();
  }

  #finish(slot: Slot): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    job.options.signal?.removeEventListener("abort", job.onAbort);
    slot.job = undefined;
  }

  #idle(slot: Slot): void {
    const timer = setTimeout(() => {
      if (!slot.job) this.#retire(slot);
    }, this.#options.idleMs ?? DEFAULT_IDLE_MS);
    Deno.unrefTimer(timer);
    slot.idleTimer = timer;
  }

  /** Ends a worker; its running job, if any, fails with `error`. */
  #retire(slot: Slot, error?: unknown): void {
    const job = slot.job;
    this.#finish(slot);
    clearTimeout(slot.idleTimer);
    slot.worker.terminate();
    this.#slots.delete(slot);
    if (job) job.reject(error ?? new Error("the PDF worker was stopped"));
  }
}

/** The bytes in a buffer of their own, so transferring it moves exactly the document. */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const plain = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return plain ? bytes as Uint8Array<ArrayBuffer> : bytes.slice();
}
