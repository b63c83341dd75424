/**
 * One on-demand web worker that ends itself after a quiet while: what the parse host (parse_off_thread.ts)
 * and the citation host (citations/render_thread.ts) share. The hosts keep their own queues and replies;
 * the slot starts the worker, routes only the current worker's events to them, and retires it.
 */
import { fileURLToPath } from "node:url";

/** A worker as a host uses it (a web Worker; tests pass their own). */
export type SlotWorker = Pick<Worker, "postMessage" | "onmessage" | "onmessageerror" | "onerror" | "terminate">;

/**
 * Starts the module worker at `url`, after checking this run may read `readRoot`, the folder of its modules
 * (else Deno would prompt or fail inside the worker, where the host could not tell why).
 * @throws an Error naming the folder when it may not be read.
 */
export function spawnModuleWorker(url: URL, readRoot: URL, name: string, holds: string): SlotWorker {
  if (url.protocol === "file:" && !Deno.build.standalone) {
    const folder = fileURLToPath(readRoot);
    if (Deno.permissions.querySync({ name: "read", path: folder }).state !== "granted") {
      throw new Error(`this run may not read ${folder}, which holds ${holds}`);
    }
  }
  return new Worker(url, { type: "module", name });
}

export interface SlotEvents<Reply> {
  /** A message from the current worker. */
  reply(reply: Reply): void;
  /** The current worker failed (an uncaught error, an unreadable message); the slot is still holding it. */
  failure(why: string): void;
}

export class WorkerSlot<Reply> {
  readonly #spawn: () => SlotWorker;
  readonly #idleMs: number;
  readonly #events: SlotEvents<Reply>;
  #thread?: SlotWorker;
  #idleTimer?: ReturnType<typeof setTimeout>;

  constructor(spawn: () => SlotWorker, idleMs: number, events: SlotEvents<Reply>) {
    this.#spawn = spawn;
    this.#idleMs = idleMs;
    this.#events = events;
  }

  /** The running worker, if any. */
  get current(): SlotWorker | undefined {
    return this.#thread;
  }

  /**
   * The running worker, or a new one, wired to the events; work is coming, so the idle timer stops.
   * @throws what `spawn` throws (no worker can be started here).
   */
  open(): { thread: SlotWorker; fresh: boolean } {
    clearTimeout(this.#idleTimer);
    if (this.#thread) return { thread: this.#thread, fresh: false };
    const thread = this.#spawn();
    this.#thread = thread;
    thread.onmessage = (event: MessageEvent<Reply>) => thread === this.#thread && this.#events.reply(event.data);
    thread.onerror = (event: ErrorEvent) => {
      event.preventDefault(); // else an error in the worker would end the whole server
      if (thread === this.#thread) this.#events.failure(event.message);
    };
    thread.onmessageerror = () => thread === this.#thread && this.#events.failure("its answer could not be read");
    return { thread, fresh: true };
  }

  /** Idle: the worker ends after the quiet time unless work comes (an unreferenced timer). */
  rest(): void {
    clearTimeout(this.#idleTimer);
    if (!this.#thread) return;
    this.#idleTimer = setTimeout(() => this.retire(), this.#idleMs);
    Deno.unrefTimer(this.#idleTimer);
  }

  /** Ends the worker now; its late events are ignored. */
  retire(): void {
    clearTimeout(this.#idleTimer);
    const thread = this.#thread;
    this.#thread = undefined;
    thread?.terminate();
  }
}
