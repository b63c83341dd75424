import assert from "node:assert/strict";
import fc from "fast-check";
import { ManualClock } from "../../../src/core/clock.ts";
import { chunkText } from "../../../src/tools/papers/content/chunk.ts";
import { TextCache } from "../../../src/tools/papers/content/text_cache.ts";
import type { ContentDoc } from "../../../src/tools/papers/content/types.ts";

/** Follows the pages the way a client follows next_offset. */
function pages(text: string, max: number): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < text.length;) {
    const c = chunkText(text, offset, max);
    if (c.end <= offset) throw new Error("no progress");
    out.push(c.text);
    offset = c.end;
  }
  return out;
}

Deno.test("chunkText pages reassemble any text exactly and never split a surrogate pair", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), fc.integer({ min: 1, max: 60 }), (text, max) => {
      const parts = pages(text, max);
      assert.equal(parts.join(""), text);
      for (const p of parts.slice(0, -1)) {
        const last = p.charCodeAt(p.length - 1);
        assert.ok(!(last >= 0xd800 && last <= 0xdbff) || p.length === 1);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("chunkText prefers paragraph, then line, then word boundaries in the last fifth", () => {
  const text = "aaaa aaaa\n\nbbbb bbbb\ncccc cccc dddd";
  assert.equal(chunkText(text, 0, 12).text, "aaaa aaaa\n\n");
  assert.equal(chunkText(text, 11, 10).text, "bbbb bbbb\n");
  assert.equal(chunkText(text, 21, 12).text, "cccc cccc ");
  assert.equal(chunkText("abcdefghij", 0, 4).text, "abcd", "no boundary: a hard cut");
  assert.deepEqual(chunkText("abc", 1, 10), { text: "bc", offset: 1, end: 3 });
});

const doc = (text: string): ContentDoc => ({
  meta: { id: "x", title: null, authors: [], date: null, url: "u" },
  text,
  format: "html",
  contentUrl: "u",
  warnings: [],
});

Deno.test("TextCache loads once, shares in-flight loads, expires and stays within its bounds", async () => {
  const clock = new ManualClock(0);
  const cache = new TextCache(clock, { maxEntries: 2, maxChars: 10, ttlMs: 1000 });
  let loads = 0;
  const load = (text: string) => () => {
    loads++;
    return Promise.resolve(doc(text));
  };
  const [a, b] = await Promise.all([cache.get("a", load("aaaa")), cache.get("a", load("aaaa"))]);
  assert.equal(loads, 1, "concurrent callers share one load");
  assert.deepEqual([a.cached, b.cached], [false, true]);
  assert.equal((await cache.get("a", load("zzzz"))).doc.text, "aaaa");
  await cache.get("b", load("bbbb"));
  await cache.get("a", load("aaaa")); // a is now the most recently used
  await cache.get("c", load("cccc")); // over 2 entries and 10 chars: b goes
  assert.equal(cache.size, 2);
  assert.equal((await cache.get("b", load("BBBB"))).cached, false);
  await cache.get("huge", load("x".repeat(11)));
  assert.equal((await cache.get("huge", load("y"))).doc.text, "y", "larger than the budget: not kept");
  await clock.advance(1001);
  assert.equal((await cache.get("b", load("new"))).doc.text, "new", "expired entries reload");
  const failing = cache.get("f", () => Promise.reject(new Error("boom")));
  await assert.rejects(failing, /boom/);
  assert.equal((await cache.get("f", load("ok"))).doc.text, "ok", "a failed load is not cached");
});
