/**
 * Collects a streamed body in memory that is given back the moment it is no longer needed. The chunks a
 * fetch body yields can be small views of much larger buffers (a gzip-decoded body arrives as 4 KiB views
 * of 64 KiB buffers), so keeping the chunks kept 16 times the body (#35: one 50 MiB gzip bomb took the
 * server from 100 to 694 MB) and the heap they fragmented was never returned. Here each chunk is copied
 * into one resizable buffer — reserved up front, committed page by page as it grows, unmapped when it is
 * detached, so nothing waits for a garbage collection — and a network body is read into one scratch
 * buffer reused for every read (http_attempt.ts), so no buffer per read is left for the heap to fragment.
 */

/** Reservations stop here (a body this large is refused anyway: it could not become a string). */
const MAX_RESERVED_BYTES = 2 ** 31;

export class BodyBuffer {
  #buffer: ArrayBuffer;
  #size = 0;

  constructor(maxBytes: number) {
    this.#buffer = new ArrayBuffer(0, { maxByteLength: Math.min(Math.max(0, maxBytes), MAX_RESERVED_BYTES) });
  }

  get size(): number {
    return this.#size;
  }

  /** Room for `more` bytes without passing the reservation. */
  fits(more: number): boolean {
    return this.#size + more <= this.#buffer.maxByteLength;
  }

  /** Copies `chunk` in (the caller keeps its chunk: it may be a scratch buffer, or a stream's own). */
  append(chunk: Uint8Array): void {
    const at = this.#size;
    this.#buffer.resize(at + chunk.byteLength);
    new Uint8Array(this.#buffer, at, chunk.byteLength).set(chunk);
    this.#size += chunk.byteLength;
  }

  /** The body as a plain fixed-length array; the reservation is released. */
  take(): Uint8Array {
    const body = new Uint8Array(this.#buffer.transferToFixedLength(this.#size));
    this.#buffer = new ArrayBuffer(0);
    this.#size = 0;
    return body;
  }

  /** Gives the memory back now, not at the next garbage collection. */
  release(): void {
    detach(new Uint8Array(this.#buffer));
    this.#size = 0;
  }
}

/** Detaching an ArrayBuffer drops its memory at once; one that cannot be detached is left to the collector. */
export function detach(array: Uint8Array): void {
  try {
    (array.buffer as ArrayBuffer).transfer(0);
  } catch { /* not detachable (e.g. a WebAssembly memory) */ }
}
