/**
 * A clock that runs `factor` times faster than real time. The fault matrix drives the real runtime
 * (scheduler, back-off, cool-downs, timeouts all read the injected clock), so every policy number keeps
 * its proportions — arXiv's 3 s spacing, PubChem's 1 s back-off, a 30 s timeout — while a 429 storm that
 * would cost 35 s of cool-downs costs a fraction of a second. Only time is scaled; the mock upstream and
 * the network are real.
 */
import { type Clock, systemClock } from "../../src/core/clock.ts";

export class WarpClock implements Clock {
  readonly #originReal = performance.now();
  readonly #originWall = Date.now();

  constructor(readonly factor: number) {
    if (!(factor >= 1)) throw new RangeError(`warp factor must be ≥ 1, got ${factor}`);
  }

  now(): number {
    return this.#originWall + (performance.now() - this.#originReal) * this.factor;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms / this.factor, signal);
  }

  /** Real milliseconds for `ms` of warped time. */
  real(ms: number): number {
    return ms / this.factor;
  }
}
