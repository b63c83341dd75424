/**
 * Turns `call <tool>` arguments into the tool's argument object: an optional JSON object first, then
 * `--flag value` pairs coerced by the input JSON Schema (numbers, booleans, arrays by repetition or
 * JSON, objects as JSON). Coercion only shapes values; validation stays with invokeTool, exactly as
 * over MCP, so a wrong value is the same INVALID_INPUT error on both paths.
 */
import type { AnyToolDef } from "../tools/tool_def.ts";
import { inputProperties, type JsonSchema } from "./fields.ts";
import { UsageError } from "./usage_error.ts";

export { UsageError };

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseToolArgs(def: AnyToolDef, argv: readonly string[]): Record<string, unknown> {
  const { properties } = inputProperties(def);
  let args: Record<string, unknown> = {};
  let i = 0;
  if (argv.length > 0 && !argv[0].startsWith("--")) {
    args = parseJsonObject(argv[0], def.name);
    i = 1;
  }
  const seen = new Set<string>();
  for (; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith("--") || token === "--") {
      throw new UsageError(
        `Unexpected argument '${token}'. Pass arguments as one JSON object or as --name value flags.`,
      );
    }
    const eq = token.indexOf("=");
    const name = eq === -1 ? token.slice(2) : token.slice(2, eq);
    let inline = eq === -1 ? undefined : token.slice(eq + 1);
    let key = resolveKey(name, properties);
    if (!key && name.startsWith("no-") && inline === undefined) {
      key = resolveKey(name.slice(3), properties);
      if (key && typesOf(properties[key]).has("boolean")) inline = "false";
      else key = undefined;
    }
    if (!key) {
      const known = Object.keys(properties).map((k) => `--${k}`).join(", ") || "(none)";
      throw new UsageError(`Unknown option --${name} for ${def.name}. Options: ${known}.`);
    }
    const schema = properties[key];
    const types = typesOf(schema);
    let raw = inline;
    if (raw === undefined) {
      const next = argv[i + 1];
      if (types.has("boolean") && types.size === 1) {
        raw = next === "true" || next === "false" ? argv[++i] : "true";
      } else if (next === undefined) {
        throw new UsageError(`Option --${name} needs a value.`);
      } else {
        raw = argv[++i];
      }
    }
    const repeatable = types.has("array") && !/^\s*\[/.test(raw);
    if (repeatable) {
      const list = seen.has(key) && Array.isArray(args[key]) ? args[key] as unknown[] : [];
      list.push(coerce(raw, (schema.items ?? {}) as JsonSchema, name));
      args[key] = list;
    } else {
      if (seen.has(key)) throw new UsageError(`Option --${name} is given twice.`);
      args[key] = coerce(raw, schema, name);
    }
    seen.add(key);
  }
  return args;
}

/** Accepts the property name as written, in kebab-case for snake_case names, or kebab for camelCase. */
function resolveKey(name: string, properties: Record<string, JsonSchema>): string | undefined {
  const candidates = [name, name.replaceAll("-", "_"), name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())];
  return candidates.find((c) => Object.hasOwn(properties, c));
}

/** The JSON types a schema node admits (through type arrays, unions, enums and consts). */
function typesOf(schema: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  if (!schema) return out;
  const add = (value: unknown) => {
    if (value === null) out.add("null");
    else if (Array.isArray(value)) out.add("array");
    else out.add(typeof value === "object" ? "object" : typeof value);
  };
  if (Array.isArray(schema.type)) schema.type.forEach((t) => out.add(String(t)));
  else if (typeof schema.type === "string") out.add(schema.type);
  if ("const" in schema) add(schema.const);
  if (Array.isArray(schema.enum)) schema.enum.forEach(add);
  for (const option of ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[])) {
    typesOf(option).forEach((t) => out.add(t));
  }
  return out;
}

/** Shapes one flag value for the schema; strings that fit no other admitted type stay strings. */
export function coerce(raw: string, schema: JsonSchema, flag: string): unknown {
  const types = typesOf(schema);
  const json = types.size === 0 || types.has("object") || types.has("array");
  if (json && /^\s*[[{]/.test(raw)) return parseJson(raw, `--${flag}`);
  if ((types.has("integer") || types.has("number")) && NUMERIC.test(raw.trim())) return Number(raw);
  if (types.has("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  if (types.has("null") && raw === "null") return null;
  if (types.size === 0) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

function parseJsonObject(text: string, tool: string): Record<string, unknown> {
  const value = parseJson(text, "the arguments");
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`The arguments of ${tool} must be one JSON object, e.g. '{"query":"BRCA1"}'.`);
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}
