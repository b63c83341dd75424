/**
 * Large upstream bodies are parsed on a worker thread, so one 16-26 MB answer (an NCBI gene record, an
 * OpenAlex page, a PMC article) never holds the server's thread, and with it every other call of the
 * process, for the hundreds of milliseconds its parse takes. The worker runs the source's own parse
 * function (a {@link ParseJob}, found by name in parse_jobs.ts) and posts back only the parsed record.
 * Small bodies are parsed inline: handing them over would cost more than parsing them.
 *
 * One long-lived worker, started on the first large body, is ended by an unreferenced timer after a quiet
 * while. A Deno web worker cannot be unreferenced, so until then it keeps a process that has nothing else
 * to do alive (the CLI and the server end with Deno.exit, so only an embedding program would wait).
 * node:worker_threads can be unreferenced, but copies a 26 MB body to its worker for seconds, holding the
 * thread this module exists to free. Jobs queue; a cancelled job is dropped (a running one with its
 * worker). Where no worker can be started (no read permission for the worker's modules, a runtime without
 * workers such as Deno Deploy) bodies are parsed inline, with one warning.
 */
import { ToolError, UpstreamError } from "../core/errors.ts";
import { createLogger, type Logger } from "../core/log.ts";
import type { ParseJob } from "./parse_job.ts";
import { type ParseReply, type ParseRequest, reviveError, unreadable } from "./parse_protocol.ts";
import { cleanRetrievedText } from "../core/control_chars.ts";
import { type SlotWorker, spawnModuleWorker, WorkerSlot } from "./worker_slot.ts";

/** Bodies from this size on go to the worker (below it, copying and waking a thread costs more than it saves). */
export const OFF_THREAD_MIN_BYTES = 1 << 20;
const DEFAULT_IDLE_MS = 5_000;

/** The worker as the host uses it (a web Worker; tests pass their own). */
export type ParseThread = SlotWorker;

export interface ParseHostOptions {
  /** Bodies of at least this many bytes are parsed off the main thread; default {@link OFF_THREAD_MIN_BYTES}. */
  minBytes?: number;
  /** Quiet time after which the worker is ended; default 5 s. */
  idleMs?: number;
  /** Starts the worker; throws where none can be started. Default: parse_worker.ts beside this module. */
  spawn?: () => ParseThread;
  log?: Logger;
}

/** What a body is parsed from: an UpstreamResponse fits. */
export interface ParseSource {
  body: Uint8Array;
  url: string;
  text(): string;
}

interface Pending {
  id: number;
  job: ParseJob<never[], unknown>;
  source: ParseSource;
  args: unknown[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
  cleanup(): void;
}

/** Starts parse_worker.ts, after checking this run may read its modules (else Deno would prompt or fail). */
export function spawnParseWorker(): ParseThread {
  const url = new URL("./parse_worker.ts", import.meta.url);
  return spawnModuleWorker(url, new URL(".", url), "science-mcp-parse", "the worker's modules");
}

export class ParseHost {
  readonly #minBytes: number;
  readonly #slot: WorkerSlot<ParseReply>;
  readonly #log: Logger;
  #ready = false;
  /** Why no worker can be had; set once, then every body is parsed inline. */
  #unavailable?: string;
  readonly #queue: Pending[] = [];
  #running?: Pending;
  #nextId = 1;

  constructor(options: ParseHostOptions = {}) {
    this.#minBytes = options.minBytes ?? OFF_THREAD_MIN_BYTES;
    this.#slot = new WorkerSlot(options.spawn ?? spawnParseWorker, options.idleMs ?? DEFAULT_IDLE_MS, {
      reply: (reply) => this.#onReply(reply),
      failure: (why) => this.#onFailure(why),
    });
    this.#log = options.log ?? createLogger();
  }

  /** Bodies waiting for the worker (not counting the one it is parsing). */
  get queued(): number {
    return this.#queue.length;
  }

  /** Whether bodies are parsed inline for good (no worker could be started). */
  get inlineOnly(): boolean {
    return this.#unavailable !== undefined;
  }

  /**
   * `job.parse(source.text(), source.url, ...args)`, on the worker when the body is large.
   * @throws what the parse throws (same classes); `signal.reason` when cancelled first; an UpstreamError
   *   of kind "parse" when the worker fails while parsing.
   */
  parse<A extends unknown[], R>(job: ParseJob<A, R>, source: ParseSource, args: A, signal?: AbortSignal): Promise<R> {
    if (source.body.byteLength < this.#minBytes || this.#unavailable) {
      return Promise.resolve().then(() => parseInline(job, source, args));
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => this.#drop(pending, signal!.reason);
      const pending: Pending = {
        id: this.#nextId++,
        job: job as unknown as ParseJob<never[], unknown>,
        source,
        args,
        resolve: resolve as (value: unknown) => void,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(pending);
      this.#pump();
    });
  }

  /** Ends the worker now; jobs still waiting fail with an UpstreamError of kind "parse". */
  close(): void {
    for (const pending of [...this.#queue, ...(this.#running ? [this.#running] : [])]) {
      this.#settle(pending, () => pending.reject(unreadable(pending.job, pending.source.url, "the server is closing")));
    }
    this.#queue.length = 0;
    this.#running = undefined;
    this.#retire();
  }

  #pump(): void {
    if (this.#running || this.#queue.length === 0) return;
    const thread = this.#open();
    if (!thread) return;
    if (!this.#ready) return; // the ready message pumps again
    const pending = this.#queue.shift()!;
    this.#running = pending;
    const request: ParseRequest = {
      id: pending.id,
      job: pending.job.name,
      body: pending.source.body,
      url: pending.source.url,
      args: pending.args,
    };
    thread.postMessage(request); // copied, not moved: the cache and coalesced callers share these bytes
  }

  /** The worker, started if need be; undefined (and inline from now on) when none can be started. */
  #open(): ParseThread | undefined {
    try {
      const { thread, fresh } = this.#slot.open();
      if (fresh) this.#ready = false;
      return thread;
    } catch (error) {
      this.#fallBack(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  #onReply(reply: ParseReply): void {
    if ("ready" in reply) {
      this.#ready = true;
    } else if (this.#running?.id === reply.id) {
      const pending = this.#running;
      this.#running = undefined;
      this.#settle(pending, () => {
        if (reply.ok) pending.resolve(reply.value);
        else pending.reject(reviveError(reply.error, pending.job, pending.source.url));
      });
    }
    this.#pump();
    if (!this.#running && this.#queue.length === 0) this.#rest();
  }

  /** The worker failed: before it was ready, workers are unavailable here; while parsing, that body fails. */
  #onFailure(why: string): void {
    if (!this.#ready) {
      this.#retire();
      this.#fallBack(`the parse worker could not start: ${why}`);
      return;
    }
    const pending = this.#running;
    this.#running = undefined;
    this.#retire();
    if (pending) {
      this.#settle(
        pending,
        () => pending.reject(unreadable(pending.job, pending.source.url, `the parse worker failed: ${why}`)),
      );
    }
    this.#pump();
  }

  /** From now on every body is parsed inline, the waiting ones too; said once. */
  #fallBack(why: string): void {
    this.#unavailable = why;
    this.#log.warn("large upstream bodies are parsed on the main thread: no parse worker", { reason: why });
    const waiting = [...(this.#running ? [this.#running] : []), ...this.#queue];
    this.#running = undefined;
    this.#queue.length = 0;
    for (const pending of waiting) {
      this.#settle(pending, () => {
        try {
          pending.resolve(parseInline(pending.job, pending.source, pending.args as never[]));
        } catch (error) {
          pending.reject(error);
        }
      });
    }
  }

  /** A cancelled job: dropped from the queue, or its worker ended when it is the one running. */
  #drop(pending: Pending, reason: unknown): void {
    const queued = this.#queue.indexOf(pending);
    if (queued >= 0) this.#queue.splice(queued, 1);
    else if (this.#running === pending) {
      this.#running = undefined;
      this.#retire();
    } else return;
    this.#settle(pending, () => pending.reject(reason));
    this.#pump();
    if (!this.#running && this.#queue.length === 0) this.#rest();
  }

  #settle(pending: Pending, settle: () => void): void {
    pending.cleanup();
    settle();
  }

  /** Idle: the worker ends after the quiet time unless work comes. */
  #rest(): void {
    this.#slot.rest();
  }

  #retire(): void {
    this.#ready = false;
    this.#slot.retire();
  }
}

/**
 * Runs the parse on this thread. A plain error (a TypeError on a shape the parser did not expect, a
 * SyntaxError, a stack overflow) becomes the UpstreamError of kind "parse" the worker path gives, so an
 * unreadable body is never an internal error, wherever it was parsed.
 */
function parseInline<A extends unknown[], R>(job: ParseJob<A, R>, source: ParseSource, args: A): R {
  try {
    // Cleaned as the worker cleans (an UpstreamResponse's text already is: cleaning twice changes nothing).
    return job.parse(cleanRetrievedText(source.text()), source.url, ...args);
  } catch (error) {
    const known = error instanceof UpstreamError || error instanceof ToolError ||
      job.errors?.some((cls) => error instanceof cls);
    if (known) throw error;
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw unreadable(job as unknown as ParseJob<never[], unknown>, source.url, why.slice(0, 200));
  }
}

/**
 * The process's one host. A worker is a process-wide resource like the CPU it runs on, and jobs carry no
 * state between them, so servers of one process share it (it ends itself when idle).
 */
let shared: ParseHost | undefined;

/**
 * Parses an upstream body with a source's parse function, off the main thread when the body is large.
 * @example const record = await parseBody(geneRecordJob, response, [geneId], signal);
 */
export function parseBody<A extends unknown[], R>(
  job: ParseJob<A, R>,
  source: ParseSource,
  args: A,
  signal?: AbortSignal,
): Promise<R> {
  return (shared ??= new ParseHost()).parse(job, source, args, signal);
}
