/**
 * Response cache: the core LRU bounded by bytes, with a lifetime per entry. Bytes rather than entry counts because
 * upstream bodies range from 200-byte ID lists to megabyte gene records; a count bound would either
 * waste memory or thrash.
 */
import type { Clock } from "../core/clock.ts";
import { BoundedLru } from "../core/lru.ts";

/** What the cache keeps of a response: enough to rebuild an UpstreamResponse. */
export interface CachedResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** Redacted final URL. */
  url: string;
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
  readonly #lru: BoundedLru<CachedResponse>;

  constructor(options: CacheOptions, clock: Clock) {
    const maxBytes = Math.max(0, options.maxBytes);
    this.#lru = new BoundedLru({
      maxSize: maxBytes,
      maxEntrySize: options.maxEntryBytes ?? Math.floor(maxBytes / 4),
      clock,
    });
  }

  /** Bytes accounted for by live entries. */
  get bytes(): number {
    return this.#lru.totalSize;
  }
  get size(): number {
    return this.#lru.size;
  }

  /** A fresh entry (marked most recently used), or undefined. Expired entries are dropped on sight. */
  get(key: string): CachedResponse | undefined {
    return this.#lru.get(key);
  }

  /**
   * Stores a complete 2xx response for `ttlMs`. Returns false (and stores nothing) for other statuses,
   * 202 and 206 (an unfinished asynchronous job — "Waiting" — and a partial body must be asked
   * again), a non-positive TTL, or an entry larger than the per-entry bound.
   */
  set(key: string, value: CachedResponse, ttlMs: number): boolean {
    if (!isCacheable(value.status)) return false;
    return this.#lru.set(key, value, { size: entrySize(key, value), ttlMs });
  }

  delete(key: string): void {
    this.#lru.delete(key);
  }

  clear(): void {
    this.#lru.clear();
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
