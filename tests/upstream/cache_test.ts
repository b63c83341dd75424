import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { type CachedResponse, ResponseCache } from "../../src/upstream/cache.ts";

function response(bytes: number, status = 200): CachedResponse {
  return { status, headers: [["content-type", "text/plain"]], body: new Uint8Array(bytes), url: "https://x.test/a" };
}

Deno.test("cache returns a stored entry until its TTL runs out", async () => {
  const clock = new ManualClock(0);
  const cache = new ResponseCache({ maxBytes: 100_000 }, clock);
  assert.equal(cache.set("k", response(10), 1000), true);
  assert.equal(cache.get("k")?.body.byteLength, 10);
  await clock.advance(999);
  assert.ok(cache.get("k"), "still fresh 1 ms before expiry");
  await clock.advance(1);
  assert.equal(cache.get("k"), undefined);
  assert.equal(cache.size, 0);
  assert.equal(cache.bytes, 0, "an expired entry gives its bytes back");
});

Deno.test("cache evicts least recently used entries when the byte budget is exceeded", () => {
  const cache = new ResponseCache({ maxBytes: 8000, maxEntryBytes: 8000 }, new ManualClock(0));
  cache.set("a", response(2000), 60_000);
  cache.set("b", response(2000), 60_000);
  cache.set("c", response(2000), 60_000);
  assert.ok(cache.get("a"), "touching a makes b the least recently used");
  cache.set("d", response(2000), 60_000);
  assert.equal(cache.get("b"), undefined);
  for (const key of ["a", "c", "d"]) assert.ok(cache.get(key), `${key} survives`);
  assert.ok(cache.bytes <= 8000);
});

Deno.test("cache stores only complete 2xx answers", () => {
  const cache = new ResponseCache({ maxBytes: 100_000 }, new ManualClock(0));
  for (const status of [202, 206, 301, 404, 429, 500, 503]) {
    assert.equal(cache.set(`k${status}`, response(10, status), 60_000), false);
    assert.equal(cache.get(`k${status}`), undefined);
  }
  assert.equal(cache.set("ok", response(10, 204), 60_000), true);
});

Deno.test("cache ignores a TTL of 0 and an entry larger than the per-entry bound", () => {
  const cache = new ResponseCache({ maxBytes: 40_000 }, new ManualClock(0));
  assert.equal(cache.set("zero", response(10), 0), false);
  assert.equal(cache.set("huge", response(20_000), 60_000), false, "over a quarter of the budget");
  assert.equal(cache.size, 0);
});

Deno.test("a budget of 0 disables the cache", () => {
  const cache = new ResponseCache({ maxBytes: 0 }, new ManualClock(0));
  assert.equal(cache.set("k", response(1), 60_000), false);
  assert.equal(cache.get("k"), undefined);
});

Deno.test("replacing a key keeps the byte count exact", () => {
  const cache = new ResponseCache({ maxBytes: 100_000 }, new ManualClock(0));
  cache.set("k", response(1000), 60_000);
  const once = cache.bytes;
  cache.set("k", response(1000), 60_000);
  assert.equal(cache.bytes, once);
  cache.delete("k");
  assert.equal(cache.bytes, 0);
});
