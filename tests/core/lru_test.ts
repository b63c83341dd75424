/** The one bounded LRU: size and count bounds, recency, lifetimes on the injected clock. */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { BoundedLru } from "../../src/core/lru.ts";

Deno.test("BoundedLru evicts the least recently used entries until the size budget holds", () => {
  const lru = new BoundedLru<string>({ maxSize: 10 });
  lru.set("a", "A", { size: 4 });
  lru.set("b", "B", { size: 4 });
  assert.equal(lru.get("a"), "A", "reading a makes b the least recently used");
  lru.set("c", "C", { size: 4 });
  assert.equal(lru.get("b"), undefined);
  assert.deepEqual([lru.get("a"), lru.get("c"), lru.totalSize, lru.size], ["A", "C", 8, 2]);
});

Deno.test("BoundedLru bounds the entry count and refuses an entry over the per-entry bound", () => {
  const lru = new BoundedLru<number>({ maxSize: 100, maxEntries: 2, maxEntrySize: 25 });
  lru.set("a", 1, { size: 1 });
  lru.set("b", 2, { size: 1 });
  lru.set("c", 3, { size: 1 });
  assert.deepEqual([lru.get("a"), lru.get("b"), lru.get("c")], [undefined, 2, 3]);
  assert.equal(lru.set("big", 4, { size: 26 }), false);
  assert.equal(lru.get("big"), undefined);
  assert.equal(lru.totalSize, 2);
});

Deno.test("BoundedLru entries expire on the injected clock and expired ones are evicted first", async () => {
  const clock = new ManualClock(0);
  const lru = new BoundedLru<string>({ maxSize: 10, clock });
  lru.set("short", "S", { size: 5, ttlMs: 1000 });
  lru.set("long", "L", { size: 5, ttlMs: 10_000 });
  await clock.advance(999);
  assert.equal(lru.get("short"), "S");
  await clock.advance(1);
  lru.set("new", "N", { size: 5 });
  assert.deepEqual([lru.get("short"), lru.get("long"), lru.get("new")], [undefined, "L", "N"]);
  assert.equal(lru.set("x", "X", { size: 1, ttlMs: 0 }), false, "a non-positive lifetime stores nothing");
});

Deno.test("BoundedLru refuses a lifetime without a clock rather than never expiring", () => {
  assert.throws(() => new BoundedLru<string>({ maxSize: 10 }).set("a", "A", { size: 1, ttlMs: 5 }), /needs a clock/);
});
