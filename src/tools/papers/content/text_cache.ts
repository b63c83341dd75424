/**
 * Per-server cache of extracted full texts, so paging through a paper (offset, offset + max_chars, ...)
 * downloads and extracts it once. Bounded by entry count and total characters (least recently used go
 * first) and by age; concurrent requests for the same paper share one extraction.
 */
import type { Clock } from "../../../core/clock.ts";
import type { ToolContext } from "../../tool_def.ts";
import type { ContentDoc } from "./types.ts";

export interface TextCacheLimits {
  maxEntries: number;
  maxChars: number;
  ttlMs: number;
}

/** 32 papers or 16 M characters (~32 MB of UTF-16), one hour. */
export const DEFAULT_LIMITS: TextCacheLimits = { maxEntries: 32, maxChars: 16_000_000, ttlMs: 3600_000 };

export class TextCache {
  readonly #entries = new Map<string, { doc: ContentDoc; at: number }>();
  readonly #inflight = new Map<string, Promise<ContentDoc>>();
  #chars = 0;
  constructor(private readonly clock: Clock, private readonly limits: TextCacheLimits = DEFAULT_LIMITS) {}

  /** The cached doc, or the result of `load` (stored unless larger than the whole budget). */
  async get(key: string, load: () => Promise<ContentDoc>): Promise<{ doc: ContentDoc; cached: boolean }> {
    const hit = this.#entries.get(key);
    if (hit && this.clock.now() - hit.at <= this.limits.ttlMs) {
      this.#entries.delete(key);
      this.#entries.set(key, hit); // most recently used last
      return { doc: hit.doc, cached: true };
    }
    if (hit) this.#remove(key);
    const pending = this.#inflight.get(key);
    if (pending) return { doc: await pending, cached: true };
    const loading = load();
    this.#inflight.set(key, loading);
    try {
      const doc = await loading;
      this.#store(key, doc);
      return { doc, cached: false };
    } finally {
      this.#inflight.delete(key);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  #store(key: string, doc: ContentDoc): void {
    if (doc.text.length > this.limits.maxChars) return;
    this.#entries.set(key, { doc, at: this.clock.now() });
    this.#chars += doc.text.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.limits.maxEntries && this.#chars <= this.limits.maxChars) break;
      this.#remove(oldest);
    }
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#chars -= entry.doc.text.length;
    this.#entries.delete(key);
  }
}

export function textCache(ctx: Pick<ToolContext, "shared" | "clock">): TextCache {
  return ctx.shared("papers:text-cache", () => new TextCache(ctx.clock));
}
