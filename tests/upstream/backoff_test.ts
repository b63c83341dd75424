import assert from "node:assert/strict";
import { cooldownMs, fullJitterMs, parseRetryAfter } from "../../src/upstream/backoff.ts";

const policy = { backoffBaseMs: 1000, backoffMaxMs: 30_000 };

Deno.test("Retry-After is read as delta-seconds or as an HTTP date", () => {
  assert.equal(parseRetryAfter("2", 0), 2000);
  assert.equal(parseRetryAfter(" 0.5 ", 0), 500);
  const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:03 GMT", now), 3000);
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now), 0, "a date in the past means now");
  assert.equal(parseRetryAfter("soon", now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
  assert.equal(parseRetryAfter("-5", now), undefined);
});

Deno.test("full jitter spreads retry n uniformly over [0, min(max, base·2^(n−1)))", () => {
  assert.equal(fullJitterMs(1, policy, () => 0), 0);
  assert.equal(fullJitterMs(1, policy, () => 0.999), 999);
  assert.equal(fullJitterMs(3, policy, () => 0.5), 2000);
  assert.equal(fullJitterMs(20, policy, () => 0.5), 15_000, "capped at backoffMaxMs");
});

Deno.test("the shared cool-down doubles per consecutive throttle, up to the ceiling", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((n) => cooldownMs(n, policy)), [
    1000,
    2000,
    4000,
    8000,
    16_000,
    30_000,
    30_000,
  ]);
});
