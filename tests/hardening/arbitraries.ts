/**
 * fast-check arbitraries for hostile tool arguments, driven by each tool's advertised input JSON Schema:
 * values inside the schema (so handlers run), at and just beyond every bound, of the wrong type, and
 * plain hostile (huge strings, control characters, unpaired surrogates, look-alike injections,
 * prototype-pollution keys). Arguments leave as JSON would carry them (NaN and Infinity become null).
 */
import fc from "fast-check";
import { inputJsonSchema } from "../../src/core/json_schema.ts";
import type { AnyToolDef } from "../../src/tools/tool_def.ts";

// deno-lint-ignore no-explicit-any
type Schema = Record<string, any>;

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\n\r\t",
  "\u001b[2J\u001b[31m",
  "\u007f\u0085\u009f",
  "\u202eevil\u202c",
  "\u200b\u200d\ufeff",
  "\ud800",
  "x\udfffy",
  "😀👩‍🔬🧬",
  "e\u0301\u0301\u0301",
  "İıß\ufb01Ω",
  "\u2028\u2029",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "0x1F",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/etc/passwd",
  "C:\\boot.ini",
  "%2e%2e%2f%2e%2e%2f",
  "%00",
  "file:///etc/passwd",
  "http://169.254.169.254/latest/meta-data/",
  "a&db=nuccore&id=1&api_key=x",
  "x#frag?y=z",
  "<script>alert(1)</script>",
  "'; DROP TABLE x; --",
  "${7*7}{{7*7}}",
  "((((((((((",
  '"unbalanced',
  "BRCA1[sym] OR",
  "*",
  "AND",
  "NOT NOT NOT",
  "%",
  "+",
  "\\",
  "NCBIGene:",
  "NCBIGene:-1",
  "NCBIGene:99999999999999999999",
  "PMID:",
  "0",
  "-1",
  "99999999999999999999999",
];

const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "", " ", "a.b"];

const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  0.5,
  -0.5,
  1e-320,
  2 ** 31,
  2 ** 32,
  2 ** 53 + 2,
  1e21,
  -1e21,
  1e308,
  NaN,
  Infinity,
];

const hugeString = fc.tuple(
  fc.constantFrom(1_000, 10_000, 100_000, 1_000_000),
  fc.constantFrom("a", "é", "😀", "(", "\u0000", "ab ", "/.."),
)
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom("\u0000", "\u001f", "\u007f", "\n", "a", "/", "."), maxLength: 30 }),
  },
  { weight: 1, arbitrary: hugeString },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { weight: 5, arbitrary: hostileString },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4, depthIdentifier: "hostile" }) },
    { weight: 1, arbitrary: hostileObject(tie("value")) },
  ),
})).value;

function hostileObject(value: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 })), value), {
    maxLength: 3,
    depthIdentifier: "hostile",
  }).map((entries) => withOwnKeys({}, entries));
}

/** Sets keys as own enumerable properties, `__proto__` included (plain assignment would set the prototype). */
export function withOwnKeys(target: Record<string, unknown>, entries: [string, unknown][]): Record<string, unknown> {
  for (const [key, value] of entries) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return target;
}

function stringFor(s: Schema, inside: boolean): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 200;
  const fits = HOSTILE_STRINGS.filter((h) => h.length >= min && h.length <= max);
  const options: fc.Arbitrary<string>[] = [
    fc.string({ minLength: min, maxLength: Math.min(max, 40), unit: "grapheme" }),
    fc.constant("x".repeat(max)),
  ];
  if (fits.length) options.push(fc.constantFrom(...fits));
  if (s.pattern) {
    try {
      const pattern = fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max);
      if (inside) return pattern;
      options.push(pattern);
    } catch { /* a pattern fast-check cannot generate from: the other options still apply */ }
  }
  if (!inside) {
    options.push(fc.constant("x".repeat(max + 1)));
    if (min > 0) options.push(fc.constant("x".repeat(min - 1)));
  }
  return fc.oneof(...options);
}

function numberFor(s: Schema, inside: boolean): fc.Arbitrary<number> {
  const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1e6);
  const high = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1e6);
  const within = s.type === "integer"
    ? fc.integer({ min: Math.max(low, -(2 ** 31)), max: Math.min(high, 2 ** 31) })
    : fc.double({ min: low, max: high, noNaN: true });
  if (inside) return fc.oneof(within, fc.constantFrom(low, high));
  const edges = [low - 1, high + 1, s.exclusiveMinimum ?? low - 1, low + 0.5];
  return fc.oneof({ weight: 2, arbitrary: within }, { weight: 2, arbitrary: fc.constantFrom(...edges) });
}

/**
 * A value for one JSON Schema node. `inside`: within every bound (edges included), so the handler runs;
 * otherwise at or past the bounds half of the time.
 */
export function schemaValue(s: Schema, inside = false): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum)) {
    return inside ? fc.constantFrom(...s.enum) : fc.oneof(fc.constantFrom(...s.enum), fc.constant(`${s.enum[0]}x`));
  }
  if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((a: Schema) => schemaValue(a, inside)));
  switch (s.type) {
    case "string":
      return stringFor(s, inside);
    case "integer":
    case "number":
      return numberFor(s, inside);
    case "boolean":
      return fc.boolean();
    case "array": {
      const item = schemaValue(s.items ?? {}, inside);
      const min = s.minItems ?? 0;
      const max = s.maxItems ?? 20;
      const normal = fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(max, 8)) });
      if (inside) return normal;
      const beyond = max <= 200 ? [fc.array(item, { minLength: max + 1, maxLength: max + 1 })] : [];
      return fc.oneof({ weight: 4, arbitrary: fc.array(item, { maxLength: Math.min(max, 8) }) }, ...beyond);
    }
    case "object":
      return fc.record(
        Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, schemaValue(v as Schema, inside)])),
        { requiredKeys: [] },
      );
    default:
      return hostileValue;
  }
}

/** JSON on the wire: what a client can actually send (NaN/Infinity → null, undefined dropped). */
export function wire(args: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(args));
}

/**
 * Arguments for `def`, three kinds mixed: inside the schema (hostile but valid strings included, so the
 * handlers and the pipeline run), an example with one to three fields replaced by hostile values, and
 * chaos (any field at or past its bounds, wrong types, hostile extra keys such as `__proto__`).
 */
export function argsFor(def: AnyToolDef): fc.Arbitrary<Record<string, unknown>> {
  const schema = inputJsonSchema(def) as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const required = (schema.required ?? []) as string[];
  const record = (inside: boolean) =>
    fc.record(
      Object.fromEntries(
        names.map((n) => [n, inside ? insideField(def, n, properties[n]) : chaosField(def, n, properties[n])]),
      ),
      { requiredKeys: inside ? required : [] },
    );
  const examples = def.examples.length ? def.examples : [{}];
  const mutated = fc.tuple(
    fc.constantFrom(...examples),
    fc.array(fc.tuple(fc.constantFrom(...(names.length ? names : ["_"])), hostileValue), {
      minLength: 1,
      maxLength: 3,
    }),
  ).map(([example, changes]) => withOwnKeys({ ...example }, changes));
  const extras = fc.array(fc.tuple(fc.constantFrom(...HOSTILE_KEYS), hostileValue), { minLength: 1, maxLength: 2 });
  const chaos = fc.tuple(record(false), fc.oneof(fc.constant([]), extras))
    .map(([args, extra]) => withOwnKeys({ ...args }, extra as [string, unknown][]));
  return fc.oneof({ weight: 3, arbitrary: record(true) }, { weight: 2, arbitrary: mutated }, {
    weight: 2,
    arbitrary: chaos,
  })
    .map(wire);
}

/** Inside the schema: generated, or an example's value (which also meets the handler's own rules). */
function insideField(def: AnyToolDef, name: string, schema: Schema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: schemaValue(schema, true) },
    ...def.examples.filter((e) => name in e).map((e) => ({ weight: 2, arbitrary: fc.constant(e[name]) })),
  );
}

function chaosField(def: AnyToolDef, name: string, schema: Schema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: schemaValue(schema) },
    { weight: 2, arbitrary: hostileValue },
    ...def.examples.filter((e) => name in e).map((e) => ({ weight: 1, arbitrary: fc.constant(e[name]) })),
  );
}
