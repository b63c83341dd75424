/**
 * The last line of defence against a promise that nobody awaits: Deno ends the process on an unhandled
 * rejection, which would take every session and call with it. The guard logs the rejection as an error
 * naming the tool call it most likely came from, and keeps the server serving. It is a safety net, not
 * the fix: every started promise is awaited or handled on every path (`deno lint` checks the common
 * shapes), and tests assert the guard logged nothing.
 */
import type { Logger } from "./log.ts";

/** A tool call in flight (or just ended), as the guard names it. */
export interface TrackedCall {
  /** The tool's name. */
  tool: string;
  /** The JSON-RPC request id. */
  request: string;
  /** The MCP session, when there is one. */
  session?: string;
  /** The call's cancellation: a rejection whose reason (or cause) is this signal's reason is the call's. */
  signal: AbortSignal;
}

/** Calls ended this long ago are still candidates: a forgotten promise usually rejects just after its call. */
const RECENT = 32;

/** The calls of one runtime, in flight and recently ended, so the guard can name the one a rejection hit. */
export class CallRegistry {
  readonly #live = new Set<TrackedCall>();
  #recent: TrackedCall[] = [];

  /** Registers a call; the returned function marks it ended. */
  track(call: TrackedCall): () => void {
    this.#live.add(call);
    return () => {
      if (!this.#live.delete(call)) return;
      this.#recent.push(call);
      if (this.#recent.length > RECENT) this.#recent = this.#recent.slice(-RECENT);
    };
  }

  /** Calls in flight. */
  get size(): number {
    return this.#live.size;
  }

  /**
   * The calls a rejection belongs to: those whose abort reason is the rejection's reason or one of its
   * causes; failing that, the cancelled ones; failing that, every call in flight.
   */
  suspects(reason: unknown): { calls: TrackedCall[]; by: "abort reason" | "cancelled" | "in flight" } {
    const all = [...this.#live, ...this.#recent];
    const chain = causes(reason);
    const matched = all.filter((c) => c.signal.aborted && chain.some((r) => r === c.signal.reason));
    if (matched.length) return { calls: matched, by: "abort reason" };
    const cancelled = all.filter((c) => c.signal.aborted);
    if (cancelled.length) return { calls: cancelled, by: "cancelled" };
    return { calls: [...this.#live], by: "in flight" };
  }
}

function causes(reason: unknown): unknown[] {
  const out: unknown[] = [];
  for (let at = reason; at !== undefined && out.length < 8 && !out.includes(at); at = (at as Error)?.cause) {
    out.push(at);
    if (!at || typeof at !== "object") break;
  }
  return out;
}

/** A process-level guard installed with {@link guardRejections}. */
export interface RejectionGuard {
  /** How many unhandled rejections it caught (tests assert none). */
  readonly caught: number;
  /** Removes the listener. */
  dispose(): void;
}

/** Message of the log record the guard writes (tests look for it). */
export const UNHANDLED_REJECTION = "unhandled promise rejection (a bug; the server keeps serving)";

/**
 * Listens for unhandled rejections on the whole process: each is logged as an error naming the call(s) it
 * most likely came from, and the default (ending the process) is prevented.
 */
export function guardRejections(log: Logger, calls: CallRegistry): RejectionGuard {
  let caught = 0;
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    caught++;
    const { calls: suspects, by } = calls.suspects(event.reason);
    log.error(UNHANDLED_REJECTION, {
      tool: unique(suspects.map((c) => c.tool)),
      request: unique(suspects.map((c) => c.request)),
      session: unique(suspects.flatMap((c) => c.session ?? [])),
      matched: suspects.length ? by : "no call in flight",
      error: describe(event.reason),
    });
  };
  globalThis.addEventListener("unhandledrejection", listener);
  return {
    get caught() {
      return caught;
    },
    dispose: () => globalThis.removeEventListener("unhandledrejection", listener),
  };
}

/** One name as a string, several joined, none as undefined (left out of the record). */
function unique(values: string[]): string | undefined {
  const set = [...new Set(values)];
  return set.length ? set.join(", ") : undefined;
}

function describe(reason: unknown): string {
  if (reason instanceof Error) return reason.stack ?? `${reason.name}: ${reason.message}`;
  try {
    return typeof reason === "string" ? reason : JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
}
