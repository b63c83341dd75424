/**
 * A small pool of extractors (extractor processes, or worker threads where no process may be started;
 * see extractor_process.ts), started on the first job, never before. Jobs queue when every slot is busy;
 * a job that overruns its time budget or is cancelled gets its slot killed (an engine cannot be interrupted
 * mid-page; a process is killed by pid, so its memory and CPU are released at once) and a fresh slot
 * replaces it on the next job. Idle slots are ended after a while, so memory held by an engine is returned.
 * A second slot starts only for queued work worth its start-up (see {@link PoolOptions.spawnMinQueuedBytes}).
 * Where slots are processes, a slot started for a small document is light (see {@link PoolOptions.lightSlots}).
 */
import { type Clock, systemClock, TIMER_STOPPED } from "../../core/clock.ts";
import type { Logger } from "../../core/log.ts";
import type { Channel, ChannelFactory } from "./extractor_process.ts";
import { PdfExtractionError } from "./types.ts";
import type { FinalReply, WorkerReply, WorkerRequest } from "./worker_protocol.ts";

export interface PoolOptions {
  /** Concurrent slots (1–2 makes sense: each holds a parsed document in memory). */
  size: number;
  /** Starts one slot. */
  channels: ChannelFactory;
  /** Idle time after which a slot is ended (PDF_EXTRACTOR_IDLE_MS; default 60 s). */
  idleMs?: number;
  /**
   * While every started slot is busy, another is started only when the queued jobs carry at least this many
   * bytes (documents, texts to index) or one is part of a split document; smaller jobs wait for a slot. An
   * extractor's start costs about 0.3 s of CPU (Deno, PDFium's compilation, its first document): more than
   * reading a few papers, so a folder of papers or two concurrent searches are read by one (unless a job waits
   * longer than {@link spawnAfterMs}). Default 2 MiB.
   */
  spawnMinQueuedBytes?: number;
  /**
   * A job that has waited this long for a busy slot gets another started anyway, so a search never waits long
   * behind a long document (a book read ahead in the background, say). Default 500 ms.
   */
  spawnAfterMs?: number;
  /**
   * Whether a slot started for a job marked {@link JobOptions.light} is started light (extractor_process.ts:
   * its wasm engine is never optimised, which saves a first paper ~40 % of its CPU but reads each page slower).
   * A light slot reads light jobs only, and only until it has read {@link lightPageBudget} pages; then, or for a
   * long document, an idle light slot is replaced by a full one. Default false (worker threads cannot be light).
   */
  lightSlots?: boolean;
  /**
   * Pages a light slot reads before a full slot replaces it (default 120, about eight papers). Liftoff reads a page
   * 1–7 ms slower than optimised code, so some dozens of pages outweigh the ~110 ms a light first paper saves; but
   * the replacement costs a process start and a tier-up again (~0.3 s), so a budget of 40 pages made five papers
   * searched one by one cost 1.44× full slots, 80 pages 1.11× (docs/benchmarks.md, "extractor stages").
   */
  lightPageBudget?: number;
  /** Time budgets are measured on this clock (tests pass a manual one). */
  clock?: Clock;
  log?: Logger;
}

export interface JobOptions {
  timeoutMs: number;
  /** The whole budget to name in a timeout message, when `timeoutMs` is what remains of it. */
  budgetMs?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** A small document, which a light slot may read (see {@link PoolOptions.lightSlots}). */
  light?: boolean;
}

/** A request without its id (the pool numbers jobs itself). */
export type JobRequest = WorkerRequest extends infer R ? R extends unknown ? Omit<R, "id"> : never : never;

interface Job {
  request: JobRequest;
  options: JobOptions;
  resolve(reply: FinalReply): void;
  reject(error: unknown): void;
}

interface Slot {
  channel: Channel;
  job?: Job & { id: number; stopTimer: AbortController; onAbort: () => void };
  idleTimer?: ReturnType<typeof setTimeout>;
  /** When it was started, and whether it has answered anything since (until then it is still starting). */
  spawnedAt: number;
  answered?: boolean;
  /** Started light (see {@link PoolOptions.lightSlots}), and the pages it has read since. */
  light: boolean;
  pages: number;
}

const DEFAULT_IDLE_MS = 60_000;
const DEFAULT_SPAWN_MIN_QUEUED_BYTES = 2 * 1024 * 1024;
const DEFAULT_SPAWN_AFTER_MS = 500;
const DEFAULT_LIGHT_PAGE_BUDGET = 120;

export class WorkerPool {
  readonly #options: PoolOptions;
  readonly #clock: Clock;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  #spawned = 0;
  #coldJobs = 0;
  /** Pending while queued jobs wait for a busy slot (see {@link PoolOptions.spawnAfterMs}). */
  #spawnTimer?: AbortController;

  constructor(options: PoolOptions) {
    this.#options = { ...options, size: Math.max(1, options.size) };
    this.#clock = options.clock ?? systemClock;
  }

  /** Slots alive right now (busy or idle). */
  get workers(): number {
    return this.#slots.size;
  }

  /** Slots started since the pool was made (a cached verdict starts none). */
  get spawned(): number {
    return this.#spawned;
  }

  /** Pids of the light extractor processes alive right now (see {@link PoolOptions.lightSlots}). */
  get lightPids(): number[] {
    return [...this.#slots].filter((s) => s.light).map((s) => s.channel.pid).filter((p): p is number =>
      p !== undefined
    );
  }

  /** Pids of the extractor processes alive right now. */
  get pids(): number[] {
    return [...this.#slots].map((s) => s.channel.pid).filter((p): p is number => p !== undefined);
  }

  get size(): number {
    return this.#options.size;
  }

  /** Idle slots right now. */
  get idle(): number {
    return [...this.#slots].filter((s) => !s.job).length + (this.#options.size - this.#slots.size);
  }

  /** Real jobs handed to a slot that had not answered anything yet: they waited for it to start. */
  get coldJobs(): number {
    return this.#coldJobs;
  }

  /** How long the oldest slot that has not answered anything yet has been starting; undefined when none. */
  get startingForMs(): number | undefined {
    const starting = [...this.#slots].filter((s) => !s.answered).map((s) => s.spawnedAt);
    return starting.length ? this.#clock.now() - Math.min(...starting) : undefined;
  }

  /** Runs one job; resolves with its final reply, rejects with PdfExtractionError for a bad document. */
  run(request: JobRequest, options: JobOptions): Promise<FinalReply> {
    if (this.#closed) return Promise.reject(new Error("the PDF extractor pool is closed"));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<FinalReply>((resolve, reject) => {
      const job: Job = { request, options, resolve, reject };
      this.#queue.push(job);
      options.signal?.addEventListener("abort", () => this.#dropQueued(job), { once: true });
      this.#dispatch();
    });
  }

  /** Ends every idle slot now (after background work, so no extractor stays for a search that may never come). */
  release(): void {
    for (const slot of [...this.#slots]) if (!slot.job) this.#retire(slot);
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#spawnTimer?.abort(TIMER_STOPPED);
    for (const job of this.#queue.splice(0)) job.reject(new Error("the PDF extractor pool was closed"));
    for (const slot of [...this.#slots]) this.#retire(slot, new Error("the PDF extractor pool was closed"));
    return Promise.resolve();
  }

  #dropQueued(job: Job): void {
    const at = this.#queue.indexOf(job);
    if (at < 0) return;
    this.#queue.splice(at, 1);
    job.reject(job.options.signal!.reason);
  }

  #dispatch(waited = false): void {
    while (this.#queue.length > 0) {
      const job = this.#queue[0];
      const idle = [...this.#slots].filter((s) => !s.job);
      let slot = idle.find((s) => this.#suits(s, job));
      if (!slot) {
        // An idle slot that does not suit the job is light, and either spent or too light for this document: it
        // makes room for a full one.
        const unsuited = idle[0];
        const room = this.#slots.size < this.#options.size;
        if (!unsuited && !(room && (waited || this.#worthStarting()))) {
          if (room) this.#spawnLater();
          return;
        }
        if (unsuited) this.#retire(unsuited);
        slot = this.#spawn(!unsuited && this.#lightFor(job));
      }
      this.#start(slot, this.#queue.shift()!);
    }
    this.#spawnTimer?.abort(TIMER_STOPPED);
    this.#spawnTimer = undefined;
  }

  /** Starts another slot for the queue if it is still waiting after {@link PoolOptions.spawnAfterMs}. */
  #spawnLater(): void {
    if (this.#spawnTimer) return;
    const timer = new AbortController();
    this.#spawnTimer = timer;
    this.#clock.sleep(this.#options.spawnAfterMs ?? DEFAULT_SPAWN_AFTER_MS, timer.signal).then(() => {
      this.#spawnTimer = undefined;
      if (!this.#closed) this.#dispatch(true);
    }, () => {});
  }

  /** Whether the queue is worth another slot's start-up (see {@link PoolOptions.spawnMinQueuedBytes}). */
  #worthStarting(): boolean {
    if (this.#slots.size === 0) return true;
    let bytes = 0;
    for (const { request } of this.#queue) {
      if (request.op === "index") bytes += request.text.length;
      else if (request.op !== "render" && (request.parts ?? 1) > 1) return true;
      else bytes += request.bytes.byteLength;
    }
    return bytes >= (this.#options.spawnMinQueuedBytes ?? DEFAULT_SPAWN_MIN_QUEUED_BYTES);
  }

  /**
   * Whether `slot` may run `job`: a full slot runs anything, a light one small documents until its budget is spent,
   * indexes and page renders.
   */
  #suits(slot: Slot, job: Job): boolean {
    // An index runs no wasm; one page rendered is not worth a process started for it.
    if (!slot.light || job.request.op === "index" || job.request.op === "render") return true;
    return job.options.light === true && slot.pages < (this.#options.lightPageBudget ?? DEFAULT_LIGHT_PAGE_BUDGET);
  }

  /** Whether a slot started for `job` is light: a small document, or an index (which runs no wasm). */
  #lightFor(job: Job): boolean {
    return this.#options.lightSlots === true && (job.options.light === true || job.request.op === "index");
  }

  #spawn(light = false): Slot {
    const slot = { spawnedAt: this.#clock.now(), light, pages: 0 } as Slot;
    slot.channel = this.#options.channels({
      onReply: (reply) => this.#onReply(slot, reply),
      onExit: (detail) => {
        if (!this.#slots.has(slot)) return;
        this.#options.log?.warn("PDF extractor ended", { detail });
        this.#retire(slot, new PdfExtractionError("too_large", exitMessage(detail)));
        this.#dispatch();
      },
    }, { light });
    this.#slots.add(slot);
    this.#spawned++;
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    const id = this.#nextId++;
    const { timeoutMs, budgetMs, signal } = job.options;
    const stopTimer = new AbortController();
    const cold = !slot.answered;
    if (cold) this.#coldJobs++;
    this.#clock.sleep(timeoutMs, stopTimer.signal).then(() => {
      if (slot.job?.id !== id) return;
      const starting = cold ? " Part of that time went to starting a fresh extractor process." : "";
      this.#retire(
        slot,
        new PdfExtractionError(
          "timeout",
          `Extracting the PDF took longer than ${
            budgetMs ?? timeoutMs
          } ms (PDF_TIMEOUT_MS) and was stopped.${starting}`,
        ),
      );
      this.#dispatch();
    }, () => {});
    const onAbort = () => {
      this.#retire(slot, signal!.reason);
      this.#dispatch();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    slot.job = { ...job, id, stopTimer, onAbort };
    slot.channel.hold?.(true);
    slot.channel.send({ ...job.request, id } as WorkerRequest);
  }

  #onReply(slot: Slot, reply: WorkerReply): void {
    slot.answered = true;
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    if (reply.kind === "progress") {
      job.options.onProgress?.(reply.done, reply.total);
      return;
    }
    this.#finish(slot);
    if (reply.kind === "failed") {
      job.reject(new PdfExtractionError(reply.reason, reply.message, reply.pageCount));
      // Over its memory budget the process is on its way out: do not hand it another job.
      if (reply.reason === "too_large" && slot.channel.pid !== undefined && /memory/.test(reply.message)) {
        this.#retire(slot);
        this.#dispatch();
        return;
      }
    } else {
      if (reply.kind === "done") slot.pages += reply.pages.length;
      job.resolve(reply);
    }
    this.#idle(slot);
    this.#dispatch();
  }

  #finish(slot: Slot): void {
    const job = slot.job;
    if (!job) return;
    job.stopTimer.abort(TIMER_STOPPED);
    job.options.signal?.removeEventListener("abort", job.onAbort);
    slot.job = undefined;
    slot.channel.hold?.(false);
  }

  /**
   * Schedules the end of an idle slot. A real, unreferenced timer rather than the injected clock: this is
   * housekeeping that must never keep the process alive, and no result depends on it.
   */
  #idle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    const timer = setTimeout(() => {
      if (slot.job) return;
      this.#retire(slot);
      this.#dispatch();
    }, this.#options.idleMs ?? DEFAULT_IDLE_MS);
    Deno.unrefTimer(timer);
    slot.idleTimer = timer;
  }

  /** Ends a slot; its running job, if any, fails with `error`. */
  #retire(slot: Slot, error?: unknown): void {
    const job = slot.job;
    this.#finish(slot);
    clearTimeout(slot.idleTimer);
    this.#slots.delete(slot);
    slot.channel.kill();
    if (job) job.reject(error ?? new Error("the PDF extractor was stopped"));
  }
}

/** A slot that died under a job: in practice its memory cap or a crash inside an engine. */
function exitMessage(detail: string): string {
  return `The PDF extractor stopped while reading this PDF (${detail}): the PDF probably needs more memory ` +
    "than an extraction may use (e.g. a decompression bomb) or is damaged.";
}
