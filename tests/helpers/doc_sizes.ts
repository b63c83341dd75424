/** Sizes as the docs write them (`2.48 MB`, `16.7 KB`, decimal units), compared with files' sizes. */
import assert from "node:assert/strict";

/** `2.48 MB` → bytes. */
export function bytesOf(size: string): number {
  const [, n, unit] = /^([\d.]+) (KB|MB)$/.exec(size)!;
  return Number(n) * (unit === "KB" ? 1e3 : 1e6);
}

/** Fails unless `actual` bytes is within 5 % of the size the docs claim (they round). */
export function near(claimed: string, actual: number, what: string): void {
  const ratio = actual / bytesOf(claimed);
  assert.ok(ratio > 0.95 && ratio < 1.05, `${what}: the docs say ${claimed}, it is ${actual} bytes`);
}
