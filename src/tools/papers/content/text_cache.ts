/**
 * Per-server cache of extracted full texts, so paging through a paper (offset, offset + max_chars, ...)
 * downloads and extracts it once. The core LRU bounds it by entry count and total characters (least
 * recently used go first) and by age; concurrent requests for the same paper share one extraction.
 */
import type { Clock } from "../../../core/clock.ts";
import { BoundedLru } from "../../../core/lru.ts";
import { sharedKey } from "../../../core/shared_key.ts";
import type { ToolContext } from "../../tool_def.ts";
import type { ContentDoc } from "./types.ts";

export interface TextCacheLimits {
  maxEntries: number;
  maxChars: number;
  ttlMs: number;
}

/** 32 papers or 16 M characters (~32 MB of UTF-16), one hour. */
export const DEFAULT_LIMITS: TextCacheLimits = { maxEntries: 32, maxChars: 16_000_000, ttlMs: 3600_000 };

export const TEXT_CACHE = sharedKey<TextCache>("papers:text-cache");

export class TextCache {
  readonly #entries: BoundedLru<ContentDoc>;
  readonly #inflight = new Map<string, Promise<ContentDoc>>();
  readonly #ttlMs: number;

  constructor(clock: Clock, limits: TextCacheLimits = DEFAULT_LIMITS) {
    this.#entries = new BoundedLru({ maxSize: limits.maxChars, maxEntries: limits.maxEntries, clock });
    this.#ttlMs = limits.ttlMs;
  }

  /** The cached doc, or the result of `load` (stored unless larger than the whole budget or `transient`). */
  async get(key: string, load: () => Promise<ContentDoc>): Promise<{ doc: ContentDoc; cached: boolean }> {
    const hit = this.#entries.get(key);
    if (hit) return { doc: hit, cached: true };
    const pending = this.#inflight.get(key);
    if (pending) return { doc: await pending, cached: true };
    const loading = load();
    this.#inflight.set(key, loading);
    try {
      const doc = await loading;
      if (!doc.transient) this.#entries.set(key, doc, { size: doc.text.length, ttlMs: this.#ttlMs });
      return { doc, cached: false };
    } finally {
      this.#inflight.delete(key);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

export function textCache(ctx: Pick<ToolContext, "shared" | "clock">): TextCache {
  return ctx.shared(TEXT_CACHE, () => new TextCache(ctx.clock));
}
