/**
 * The seam between the retry loop and pacing: a gate that hands out permits. {@link Scheduler} is the
 * in-process gate; a gate backed by a shared store (one rate budget for several server processes) can
 * replace it through `PipelineDeps.gates` without touching the retry loop.
 */
import type { Clock } from "../core/clock.ts";

/** Thrown by a gate when the upstream is cooling down for longer than callers should wait. */
export class CooldownError extends Error {
  override name = "CooldownError";
  constructor(readonly upstream: string, readonly until: number, readonly retryAfterMs: number) {
    super(`${upstream} is cooling down for ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

/** The right to start one request. Release it when the request is finished (or use `using`). */
export interface Permit {
  readonly grantedAt: number;
  /**
   * The first request after an idle spell (new connection, fresh process): when it really reaches the
   * upstream is unknown until it is answered, so the gate holds the budget until then (at most 2 s).
   */
  readonly cold?: boolean;
  /**
   * Tells the gate the answer's head has arrived. A request answered later than usual also arrived
   * later than usual: the gate spaces what follows from that late arrival, not from the grant.
   */
  answered?(): void;
  /**
   * Tells the gate the request is leaving now. Spacing counts from the actual send: a request that
   * leaves late (a stalled event loop) pushes what follows back by as much.
   */
  sent?(): void;
  release(): void;
  [Symbol.dispose](): void;
}

export interface GateOptions {
  /** For messages and status: the upstream name (or `<name>:<host>` for per-host upstreams). */
  name: string;
  /** Minimum spacing between two permit grants, as published. */
  intervalMs: number;
  /** At most this many grants in any 60 s window, as published. */
  perMinute?: number;
  /** Safety margin in percent added to the published rate (0 = exactly the published rate). */
  marginPct?: number;
  /** Permits held at once; a permit is held until the request (body included) is finished. */
  concurrency: number;
  /**
   * A cool-down longer than this fails waiters at once with a CooldownError instead of parking them
   * (an upstream that says "come back in an hour" should produce an answer now, not a hung call).
   */
  maxCooldownWaitMs: number;
}

/** What the pipeline needs from pacing: permits, a shared cool-down, a slow-down factor, and its state. */
export interface PermitGate {
  readonly name: string;
  /** An endless iterator of permits: each `next()` queues for a new one (so every retry queues again). */
  permits(signal?: AbortSignal): AsyncIterable<Permit>;
  /** Closes the gate for everyone for `ms` (extends, never shortens, a running cool-down). */
  coolDown(ms: number): void;
  /** Stretches the spacing by `factor` (≥ 1) until set back to 1. */
  setSlowdown(factor: number): void;
  /** End of the shared cool-down, when one is running. */
  readonly cooldownUntil: number | undefined;
  readonly queueLength: number;
  readonly inFlight: number;
  readonly slowdown: number;
}

/** Builds the gate of one queue. */
export type GateFactory = (options: GateOptions, clock: Clock) => PermitGate;
