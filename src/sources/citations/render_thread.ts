/**
 * Formatted citations off the server's thread. Building a citeproc engine for a large style takes seconds
 * of CPU (APA, Chicago: see docs/benchmarks.md), which on the server's thread would stall every other call
 * of the process; render_worker.ts builds and keeps the engines instead. Loaded on demand with the first
 * formatted style (format.ts), so the server starts without it.
 *
 * One worker per process, started on the first request, ended by an unreferenced timer after a quiet
 * while (its engines, up to ~340 MiB with all eight styles, go with it). A Deno web worker cannot be
 * unreferenced, so until then it keeps a process that has nothing else to do alive (the CLI and the server
 * end with Deno.exit; an embedding program would wait, or end it with {@link closeRenderThread}). A cancelled request is answered
 * at once with its signal's reason (the worker finishes the engine it was building, for the next call).
 * Where no worker can be started (no read permission for its modules, a runtime without workers) the
 * engine runs on this thread, with one warning.
 */
import { createLogger, type Logger } from "../../core/log.ts";
import { type SlotWorker, spawnModuleWorker, WorkerSlot } from "../worker_slot.ts";
import type { CslItem } from "./csl.ts";
import type { FormattedStyle } from "./engine.ts";
import type { RenderReply, RenderRequest } from "./render_protocol.ts";

/** Quiet time after which the worker, and the engines it holds, are ended. */
const IDLE_MS = 10 * 60_000;

/** The worker as the host uses it (a web Worker; tests pass their own). */
export type RenderWorker = SlotWorker;

export interface RenderHostOptions {
  /** Starts the worker; throws where none can be started. Default: render_worker.ts beside this module. */
  spawn?: () => RenderWorker;
  /** Quiet time after which the worker is ended; default 10 minutes. */
  idleMs?: number;
  log?: Logger;
}

interface Pending {
  resolve(text: string): void;
  reject(error: unknown): void;
  request: RenderRequest;
}

/** Starts render_worker.ts, after checking this run may read its modules (else Deno would prompt or fail). */
export function spawnRenderWorker(): RenderWorker {
  const url = new URL("./render_worker.ts", import.meta.url);
  return spawnModuleWorker(url, new URL("../", url), "science-mcp-citations", "the citation worker's modules");
}

export class RenderHost {
  readonly #slot: WorkerSlot<RenderReply>;
  readonly #log: Logger;
  #answered = false;
  #inline?: string;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(options: RenderHostOptions = {}) {
    this.#slot = new WorkerSlot(options.spawn ?? spawnRenderWorker, options.idleMs ?? IDLE_MS, {
      reply: (reply) => this.#onReply(reply),
      failure: (why) => this.#onFailure(why),
    });
    this.#log = options.log ?? createLogger();
  }

  /** Whether references are rendered on this thread for good (no worker could be started). */
  get inlineOnly(): boolean {
    return this.#inline !== undefined;
  }

  /** Ends the worker now; requests still waiting fail. */
  close(): void {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    this.#slot.retire();
    for (const p of waiting) p.reject(new Error("the citation worker was closed"));
  }

  /**
   * `item` in `style`, as plain text.
   * @throws `signal.reason` when cancelled first; an Error when citeproc or the worker fails.
   */
  render(item: CslItem, style: FormattedStyle, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#inline) return renderInline(item, style);
    const thread = this.#open();
    if (!thread) return renderInline(item, style);
    const request: RenderRequest = { id: this.#nextId++, item, style };
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        if (this.#pending.delete(request.id)) reject(signal!.reason);
        this.#rest();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.#pending.set(request.id, {
        request,
        resolve: (text) => (done(), resolve(text)),
        reject: (error) => (done(), reject(error)),
      });
      thread.postMessage(request);
    });
  }

  /** The worker, started if need be; undefined (and inline from now on) when none can be started. */
  #open(): RenderWorker | undefined {
    try {
      const { thread, fresh } = this.#slot.open();
      if (fresh) this.#answered = false;
      return thread;
    } catch (error) {
      this.#fallBack(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  #onReply(reply: RenderReply): void {
    this.#answered = true;
    if ("ready" in reply) return;
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (pending) {
      if (reply.ok) pending.resolve(reply.text);
      else pending.reject(new Error(`citeproc could not render ${pending.request.style}: ${reply.message}`));
    }
    this.#rest();
  }

  /** The worker failed: before it ever answered, workers are unavailable here; later, its requests fail. */
  #onFailure(why: string): void {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    const started = this.#answered;
    this.#slot.retire();
    if (!started) {
      this.#fallBack(`the citation worker could not start: ${why}`);
      for (const p of waiting) renderInline(p.request.item, p.request.style).then(p.resolve, p.reject);
      return;
    }
    for (const p of waiting) p.reject(new Error(`the citation worker failed: ${why}`));
  }

  #fallBack(why: string): void {
    this.#inline = why;
    this.#log.warn("formatted citations are rendered on the main thread: no citation worker", { reason: why });
  }

  /** Idle once nothing waits: the worker ends after the quiet time unless work comes. */
  #rest(): void {
    if (!this.#pending.size) this.#slot.rest();
  }
}

async function renderInline(item: CslItem, style: FormattedStyle): Promise<string> {
  const { renderReference } = await import("./engine.ts");
  return await renderReference(item, style);
}

/** The process's one host: the worker and its engines are a process-wide resource, like the CPU. */
let shared: RenderHost | undefined;

/** Ends the process's citation worker now (its engines go with it); the next reference starts a new one. */
export function closeRenderThread(): void {
  shared?.close();
}

/** One reference in a CSL style, rendered on the citation thread. */
export function renderReference(item: CslItem, style: FormattedStyle, signal?: AbortSignal): Promise<string> {
  return (shared ??= new RenderHost()).render(item, style, signal);
}
