/**
 * A readable view of a tool's input schema, derived from the same JSON Schema tools/list advertises:
 * `cli help` and docs/tools.md both render it, so neither can drift from the zod schema.
 */
import { inputJsonSchema } from "../core/json_schema.ts";
import type { AnyToolDef } from "../tools/tool_def.ts";

export type JsonSchema = Record<string, unknown>;

export interface FieldDoc {
  name: string;
  /** `string`, `integer`, `"a" | "b"`, `string[]`… */
  type: string;
  required: boolean;
  /** JSON of the default value, when there is one. */
  default?: string;
  /** Bounds and formats: `1..100`, `length ≤ 300`, `pattern ^\d+$`. */
  constraints: string[];
  description: string;
  /** The allowed values when the field (or each item of it) is an enumeration. */
  values?: string[];
}

/** Top-level properties of the tool's input JSON Schema, in declaration order. */
export function inputProperties(def: AnyToolDef): { properties: Record<string, JsonSchema>; required: string[] } {
  const schema = inputJsonSchema(def);
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}

export function describeFields(def: AnyToolDef): FieldDoc[] {
  const { properties, required } = inputProperties(def);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    type: typeName(schema),
    required: required.includes(name),
    ...("default" in schema ? { default: JSON.stringify(schema.default) } : {}),
    constraints: constraints(schema),
    description: typeof schema.description === "string" ? schema.description : "",
    ...enumValues(schema),
  }));
}

function enumValues(schema: JsonSchema): { values?: string[] } {
  const node = schema.type === "array" && schema.items && typeof schema.items === "object"
    ? schema.items as JsonSchema
    : schema;
  return Array.isArray(node.enum) ? { values: node.enum.map(String) } : {};
}

/** A compact TypeScript-like rendering of a JSON Schema node. */
function typeName(schema: JsonSchema): string {
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return union.map(typeName).join(" | ");
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => typeName({ ...schema, type: t })).join(" | ");
  if (type === "array") {
    const items = typeName((schema.items ?? {}) as JsonSchema);
    return items.includes(" ") ? `(${items})[]` : `${items}[]`;
  }
  return typeof type === "string" ? type : "any";
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** Human-readable bounds of a node (and of array items). */
export function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  const bound = (value: unknown) => typeof value === "number" && Math.abs(value) < SAFE ? value : undefined;
  /** `1..100` when both ends are inclusive; otherwise each end with its own sign (`> 0`, `< 1`). */
  const range = (min: unknown, max: unknown, unit = "", exclusiveMin?: unknown, exclusiveMax?: unknown) => {
    const lo = bound(min);
    const hi = bound(max);
    const xlo = lo === undefined ? bound(exclusiveMin) : undefined;
    const xhi = hi === undefined ? bound(exclusiveMax) : undefined;
    if (lo !== undefined && hi !== undefined) {
      out.push(`${unit}${lo}..${hi}`);
      return;
    }
    const ends = [
      lo !== undefined ? `≥ ${lo}` : xlo !== undefined ? `> ${xlo}` : undefined,
      hi !== undefined ? `≤ ${hi}` : xhi !== undefined ? `< ${xhi}` : undefined,
    ].filter(Boolean);
    if (ends.length) out.push(`${unit}${ends.join(", ")}`);
  };
  range(schema.minimum, schema.maximum, "", schema.exclusiveMinimum, schema.exclusiveMaximum);
  range(schema.minLength, schema.maxLength, "length ");
  range(schema.minItems, schema.maxItems, "items ");
  if (typeof schema.pattern === "string") out.push(`pattern ${schema.pattern}`);
  if (typeof schema.format === "string") out.push(`format ${schema.format}`);
  if (schema.type === "array" && schema.items && typeof schema.items === "object") {
    out.push(...constraints(schema.items as JsonSchema).map((c) => `each ${c}`));
  }
  return out;
}

/** Quotes a value for POSIX shells when it needs it. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** An example as CLI flags: `--query BRCA1 --limit 5 --ids 1 --ids 2 --exact`. */
function exampleFlags(example: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(example)) {
    const flag = `--${key}`;
    if (value === true) parts.push(flag);
    else if (value === false) parts.push(`${flag}=false`);
    else if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
      for (const v of value) parts.push(flag, shellQuote(String(v)));
    } else if (typeof value === "string" || typeof value === "number") parts.push(flag, shellQuote(String(value)));
    else parts.push(flag, shellQuote(JSON.stringify(value)));
  }
  return parts.join(" ");
}

/** The two CLI forms of one example call. */
export function exampleCommands(def: AnyToolDef, example: Record<string, unknown>): { json: string; flags: string } {
  const base = `deno task cli call ${def.name}`;
  const flags = exampleFlags(example);
  return { json: `${base} ${shellQuote(JSON.stringify(example))}`, flags: flags ? `${base} ${flags}` : base };
}
