/**
 * Coalescing of identical in-flight requests: the first caller starts the work, later callers with the
 * same key join it. Each caller keeps its own cancellation: one caller giving up leaves the shared work
 * running for the others; only when every caller has given up is the shared work aborted (so a queued
 * request that nobody wants any more leaves the upstream's queue).
 */

interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  callers: number;
}

export interface Joined<T> {
  value: T;
  /** True when this caller joined work another caller started. */
  shared: boolean;
}

export class Coalescer<T> {
  readonly #flights = new Map<string, Flight<T>>();

  /** Keys with work in flight. */
  get size(): number {
    return this.#flights.size;
  }

  /**
   * Runs `work` once per key at a time. `work` receives a signal that aborts only when every caller
   * has aborted. A caller whose own `signal` aborts is rejected with that signal's reason at once.
   */
  run(key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<Joined<T>> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let flight = this.#flights.get(key);
    const shared = flight !== undefined;
    if (!flight) flight = this.#start(key, work);
    flight.callers++;
    const current = flight;
    if (!signal) return current.promise.then((value) => ({ value, shared }));

    return new Promise<Joined<T>>((resolve, reject) => {
      const onAbort = () => {
        this.#leave(key, current, signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      current.promise.then(
        (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve({ value, shared });
        },
        (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  #start(key: string, work: (signal: AbortSignal) => Promise<T>): Flight<T> {
    const controller = new AbortController();
    const flight: Flight<T> = {
      promise: Promise.resolve().then(() => work(controller.signal)),
      controller,
      callers: 0,
    };
    // Once settled, later callers must start afresh (and read the cache) rather than reuse this result.
    flight.promise.then(
      () => this.#forget(key, flight),
      () => this.#forget(key, flight),
    );
    this.#flights.set(key, flight);
    return flight;
  }

  #leave(key: string, flight: Flight<T>, reason: unknown): void {
    flight.callers--;
    if (flight.callers > 0) return;
    this.#forget(key, flight);
    flight.controller.abort(reason);
  }

  #forget(key: string, flight: Flight<T>): void {
    if (this.#flights.get(key) === flight) this.#flights.delete(key);
  }
}
