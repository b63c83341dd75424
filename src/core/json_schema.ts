/**
 * JSON Schemas derived from the zod schemas (never written by hand): the full input schema that `cli help`,
 * docs/tools.md and the fuzzers read, and the compact pair that tools/list advertises. Converting costs
 * 10–25 ms per catalogue, so each ToolDef's schemas are built once and shared (they are frozen).
 *
 * tools/list is paid for in every conversation (tests/contract/tools_list_budget_test.ts holds it to 1,100
 * characters per tool), so what it advertises carries what a model or a validating client needs, no more:
 * - integers lose zod's `±2^53` bounds (`type: "integer"` says it);
 * - input schemas keep types, enums, defaults, numeric and list bounds, `minLength` (models do send "" for
 *   optional strings) and the descriptions a model fills fields by; string caps and regex patterns are the
 *   server's guards, enforced by zod at call time with an error that names the rule, as are unknown keys;
 * - output schemas type the result's top-level fields; nested records are typed `object` and lists `array`
 *   without what they hold, and there are no descriptions or `required` lists. The tool's description and
 *   the text block say what a record holds, and zod checks every result in full before it leaves the server
 *   (invoke.ts), so the advertised schema only has to be true, not exhaustive.
 */
import { z } from "./zod.ts";
import type { AnyToolDef } from "./tool_def.ts";

type JsonSchema = Readonly<Record<string, unknown>>;
type Mutable = Record<string, unknown>;

const inputs = new WeakMap<AnyToolDef, JsonSchema>();
const listedInputs = new WeakMap<AnyToolDef, JsonSchema>();
const outputs = new WeakMap<AnyToolDef, JsonSchema>();

/** The complete input schema: every zod constraint, unknown keys refused. */
export function inputJsonSchema(def: AnyToolDef): JsonSchema {
  return cached(inputs, def, () => withoutSafeIntegerBounds(convert(z.strictObject(def.input.shape), "input")));
}

/** The input schema tools/list advertises: {@link inputJsonSchema} without the server-side guards. */
export function listedInputSchema(def: AnyToolDef): JsonSchema {
  return cached(listedInputs, def, () => withoutGuards(inputJsonSchema(def)));
}

/**
 * The outputSchema tools/list advertises. With no `required` list, a failed call's structuredContent
 * (`{ error }`) validates too, which matters: the SDK's client validates structuredContent against
 * outputSchema even when `isError` is set (client/index.js, callTool). A tool whose result has a top-level
 * field named `error` gets `anyOf: [result, {required: ["error"]}]` instead.
 */
export function outputJsonSchema(def: AnyToolDef): JsonSchema {
  return cached(outputs, def, () => {
    const result = topLevelOnly(withoutSafeIntegerBounds(convert(def.output, "output")));
    const properties = result.properties as Mutable;
    if (!("error" in properties)) return result;
    return { type: "object", anyOf: [{ properties }, { required: ["error"] }] };
  });
}

function cached(cache: WeakMap<AnyToolDef, JsonSchema>, def: AnyToolDef, make: () => Mutable): JsonSchema {
  let schema = cache.get(def);
  if (!schema) {
    schema = deepFreeze(make());
    cache.set(def, schema);
  }
  return schema;
}

function withoutSafeIntegerBounds(schema: Mutable): Mutable {
  const safe = Number.MAX_SAFE_INTEGER;
  return JSON.parse(JSON.stringify(schema, (key, value) => {
    if ((key === "minimum" && value === -safe) || (key === "maximum" && value === safe)) return undefined;
    return value;
  }));
}

/** Drops `maxLength`, `pattern` and `additionalProperties: false` wherever they are keywords of a schema. */
function withoutGuards(schema: JsonSchema): Mutable {
  const out: Mutable = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "maxLength" || key === "pattern" || (key === "additionalProperties" && value === false)) continue;
    if (key === "properties") {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [name, withoutGuards(child)]),
      );
    } else if (key === "items" && value && typeof value === "object") out[key] = withoutGuards(value as JsonSchema);
    else if (key === "anyOf" || key === "oneOf") out[key] = (value as JsonSchema[]).map(withoutGuards);
    else out[key] = value;
  }
  return out;
}

/** The top level of an object schema: its properties, each reduced by {@link shallow}. */
function topLevelOnly(schema: Mutable): Mutable {
  const properties = (schema.properties ?? {}) as Record<string, Mutable>;
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, shallow(child)])),
  };
}

/**
 * A field's type without what lies below it: a record is `{type: "object"}` (a map keeps its value type), a
 * list `{type: "array"}`, a union of bare types one type list; enums and consts stay.
 */
function shallow(schema: Mutable): Mutable {
  const union = (schema.anyOf ?? schema.oneOf) as Mutable[] | undefined;
  if (union) {
    const members = union.map(shallow);
    const bare = members.every((m) => Object.keys(m).length === 1 && typeof m.type === "string");
    return bare ? { type: members.map((m) => m.type) } : { anyOf: members };
  }
  const out: Mutable = {};
  if (schema.type !== undefined) out.type = schema.type;
  for (const key of ["enum", "const"]) if (key in schema) out[key] = schema[key];
  const values = schema.additionalProperties;
  if (schema.type === "object" && values && typeof values === "object") {
    out.additionalProperties = shallow(values as Mutable);
  }
  return out;
}

function convert(schema: z.ZodType, io: "input" | "output"): Mutable {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Mutable;
  delete json.$schema;
  return json;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
