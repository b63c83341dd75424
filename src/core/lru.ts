/**
 * One bounded least-recently-used map for every cache of the server: bounded by a total size (bytes,
 * characters: whatever the caller measures), optionally by an entry count, with an optional lifetime per
 * entry on the injected clock. Map iteration order is insertion order, so the first key is always the
 * least recently used one.
 */
import type { Clock } from "./clock.ts";

export interface LruOptions {
  /** Total size budget, in the unit the caller measures entries in; 0 keeps nothing. */
  maxSize: number;
  /** Largest single entry; default the whole budget (a quarter is wise when one entry must not flush all). */
  maxEntrySize?: number;
  /** Most entries kept; default no limit. */
  maxEntries?: number;
  /** Needed for entries stored with a lifetime. */
  clock?: Clock;
}

interface Entry<V> {
  value: V;
  size: number;
  expiresAt: number;
}

export class BoundedLru<V> {
  readonly #options: Required<Omit<LruOptions, "clock">> & { clock?: Clock };
  readonly #entries = new Map<string, Entry<V>>();
  #size = 0;

  constructor(options: LruOptions) {
    const maxSize = Math.max(0, options.maxSize);
    this.#options = {
      maxSize,
      maxEntrySize: options.maxEntrySize ?? maxSize,
      maxEntries: options.maxEntries ?? Infinity,
      clock: options.clock,
    };
  }

  /** Entries held (expired ones included until they are seen or evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /** Sum of the sizes of the entries held. */
  get totalSize(): number {
    return this.#size;
  }

  /** A live entry, marked most recently used; an expired entry is dropped on sight. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (this.#expired(entry, this.#now())) {
      this.#size -= entry.size;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Stores `value` as the most recently used entry, then evicts (expired entries first, then the least
   * recently used) until every bound holds. Returns false, storing nothing, for an entry over the
   * per-entry bound or a non-positive lifetime.
   */
  set(key: string, value: V, entry: { size: number; ttlMs?: number }): boolean {
    if (entry.ttlMs !== undefined && !this.#options.clock) {
      throw new TypeError("an entry with a lifetime needs a clock");
    }
    if (entry.ttlMs !== undefined && entry.ttlMs <= 0) return false;
    if (entry.size > this.#options.maxEntrySize || entry.size > this.#options.maxSize) return false;
    this.delete(key);
    const expiresAt = entry.ttlMs === undefined ? Infinity : this.#now() + entry.ttlMs;
    this.#entries.set(key, { value, size: entry.size, expiresAt });
    this.#size += entry.size;
    this.#evict();
    return true;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#size -= entry.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#size = 0;
  }

  #overBudget(): boolean {
    return this.#size > this.#options.maxSize || this.#entries.size > this.#options.maxEntries;
  }

  #evict(): void {
    if (!this.#overBudget()) return;
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (this.#expired(entry, now)) this.delete(key);
    for (const key of this.#entries.keys()) {
      if (!this.#overBudget()) break;
      this.delete(key);
    }
  }

  #expired(entry: Entry<V>, now: number): boolean {
    return entry.expiresAt <= now;
  }

  #now(): number {
    return this.#options.clock?.now() ?? 0;
  }
}
