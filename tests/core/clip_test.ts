/** Bounded echoes of caller input: invalid_input and logged arguments never carry a value whole. */
import assert from "node:assert/strict";
import { clipValue, ECHO_LIMITS } from "../../src/core/clip.ts";
import { createLogger, type LogRecord } from "../../src/core/log.ts";
import { invalidInput } from "../../src/core/errors.ts";

Deno.test("values that fit come back equal", () => {
  const value = { query: "TP53", ids: [1, 2, 3], filter: { year: 2024, open: true }, none: null };
  assert.deepEqual(clipValue(value), value);
});

Deno.test("long strings, long arrays, wide and deep objects are cut with a marker saying what was left out", () => {
  assert.equal(clipValue("x".repeat(1000)), `${"x".repeat(300)}…(+700 chars)`);
  const ids = clipValue(Array.from({ length: 10_000 }, (_, i) => i)) as unknown[];
  assert.equal(ids.length, ECHO_LIMITS.items + 1);
  assert.equal(ids.at(-1), "…(+9980 items)");
  const wide = clipValue(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]))) as object;
  assert.equal(Object.keys(wide).length, ECHO_LIMITS.items + 1);
  let deep: unknown = "bottom";
  for (let i = 0; i < 1000; i++) deep = { down: deep };
  assert.ok(JSON.stringify(clipValue(deep)).length < 100, "a thousand levels become four and a marker");
});

Deno.test("invalid_input quotes a huge argument briefly", () => {
  const error = invalidInput("ids", "must be fewer than 200 ids", Array.from({ length: 100_000 }, (_, i) => `id${i}`));
  assert.ok(JSON.stringify(error.toEnvelope()).length < 1000);
});

Deno.test("a log record with a megabyte argument stays a bounded line", () => {
  const records: LogRecord[] = [];
  const log = createLogger({ sinks: [(r) => records.push(r)] });
  log.info("tool call", {
    arguments: { text: "y".repeat(1_000_000), list: Array.from({ length: 100_000 }, () => "z") },
  });
  assert.equal(records.length, 1);
  assert.ok(JSON.stringify(records[0]).length < 10_000, `${JSON.stringify(records[0]).length} characters`);
});
