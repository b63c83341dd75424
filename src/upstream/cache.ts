/**
 * Response cache: LRU bounded by bytes, with a lifetime per entry. Bytes rather than entry counts because
 * upstream bodies range from 200-byte ID lists to megabyte gene records; a count bound would either
 * waste memory or thrash.
 */
import type { Clock } from "../core/clock.ts";

/** What the cache keeps of a response: enough to rebuild an UpstreamResponse. */
export interface CachedResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** Redacted final URL. */
  url: string;
}

interface Entry {
  value: CachedResponse;
  expiresAt: number;
  size: number;
}

/** Bookkeeping cost of an entry beyond its body and key (object headers, map slot). */
const ENTRY_OVERHEAD = 256;

export interface CacheOptions {
  /** Total budget; 0 disables the cache. */
  maxBytes: number;
  /** Largest single entry; default a quarter of the budget, so one huge body cannot flush everything. */
  maxEntryBytes?: number;
}

export class ResponseCache {
  readonly #clock: Clock;
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  /** Map iteration order is insertion order: the first key is the least recently used. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(options: CacheOptions, clock: Clock) {
    this.#clock = clock;
    this.#maxBytes = Math.max(0, options.maxBytes);
    this.#maxEntryBytes = options.maxEntryBytes ?? Math.floor(this.#maxBytes / 4);
  }

  /** Bytes accounted for by live entries. */
  get bytes(): number {
    return this.#bytes;
  }
  get size(): number {
    return this.#entries.size;
  }

  /** A fresh entry (marked most recently used), or undefined. Expired entries are dropped on sight. */
  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#clock.now()) {
      this.#bytes -= entry.size;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Stores a complete 2xx response for `ttlMs`. Returns false (and stores nothing) for other statuses,
   * 202 and 206 (an unfinished asynchronous job — "Waiting" — and a partial body must be asked
   * again), a non-positive TTL, or an entry larger than the per-entry bound.
   */
  set(key: string, value: CachedResponse, ttlMs: number): boolean {
    if (ttlMs <= 0 || !isCacheable(value.status)) return false;
    const size = entrySize(key, value);
    if (size > this.#maxEntryBytes || size > this.#maxBytes) return false;
    this.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + ttlMs, size });
    this.#bytes += size;
    this.#evict();
    return true;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Drops expired entries first, then least recently used ones, until the budget holds. */
  #evict(): void {
    if (this.#bytes <= this.#maxBytes) return;
    const now = this.#clock.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.delete(key);
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.delete(key);
    }
  }
}

function isCacheable(status: number): boolean {
  return status >= 200 && status <= 299 && status !== 202 && status !== 206;
}

function entrySize(key: string, value: CachedResponse): number {
  let size = ENTRY_OVERHEAD + key.length * 2 + value.url.length * 2 + value.body.byteLength;
  for (const [k, v] of value.headers) size += (k.length + v.length) * 2;
  return size;
}
