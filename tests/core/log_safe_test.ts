/**
 * What a log sink receives: the record bounded (clipValue's rules) and redacted (secret query parameters,
 * bearer tokens, secret-named keys), made in one walk. Checked against the two-walk definition it replaced,
 * on generated values, so a faster record can never show more (or less) than before.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type ClipLimits, clipValue } from "../../src/core/clip.ts";
import { logSafe, redact } from "../../src/core/log.ts";

/** The definition: clip first, then redact every string and replace every secret-named key's value. */
function reference(value: unknown, limits: ClipLimits): unknown {
  const redactAll = (v: unknown): unknown => {
    if (typeof v === "string") {
      return v.replace(/([?&](?:api_key|email|mailto|token|key)=)[^&\s"]*/gi, "$1REDACTED")
        .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, "$1REDACTED");
    }
    if (Array.isArray(v)) return v.map(redactAll);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        out[k] = /^(api_?key|authorization|secret|password|token)$/i.test(k) ? "REDACTED" : redactAll(item);
      }
      return out;
    }
    return v;
  };
  return redactAll(clipValue(value, limits));
}

const secretish = fc.constantFrom(
  "https://x.org/a?api_key=abc123&db=pubmed",
  "see ?email=a@b.org and &mailto=c@d.org",
  "Authorization: Bearer eyJhbGciOi.J9x-y_z",
  "key=1&token=2",
  "a=b",
  "Bearer",
  "plain text, no secrets",
);
const text = fc.oneof(fc.string({ maxLength: 40 }), secretish, fc.string({ minLength: 30, maxLength: 60 }));
const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("token", "API_KEY", "apikey", "Secret", "password"));
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.array(tie("node"), { maxLength: 7 }),
    fc.dictionary(key, tie("node"), { maxKeys: 7 }),
  ),
})).node;

Deno.test("a log record is clipped and redacted exactly as clip-then-redact would make it", () => {
  const limits = { chars: 25, items: 4, depth: 3 };
  fc.assert(
    fc.property(value, (v) => assert.deepEqual(logSafe(v, limits), reference(v, limits))),
    { numRuns: 2000 },
  );
});

Deno.test("a log record keeps no secret: query keys, bearer tokens and secret-named fields", () => {
  const record = logSafe({
    url: "https://eutils.ncbi.nlm.nih.gov/esearch.fcgi?term=x&api_key=SECRET1&email=me@example.org",
    headers: { Authorization: "Bearer SECRET2", token: "SECRET3" },
    nested: [{ password: { deep: "SECRET4" } }],
  });
  assert.doesNotMatch(JSON.stringify(record), /SECRET|me@example/);
  assert.equal(redact("no secrets here"), "no secrets here");
});
