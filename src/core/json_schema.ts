/**
 * JSON Schemas advertised in tools/list, derived from the zod schemas (never written by hand). Converting
 * costs 10–25 ms per catalogue, so each ToolDef's schemas are built once and shared (they are frozen).
 */
import { z } from "zod";
import { errorResultSchema } from "./errors.ts";
import type { AnyToolDef } from "./tool_def.ts";

type JsonSchema = Readonly<Record<string, unknown>>;

const inputs = new WeakMap<AnyToolDef, JsonSchema>();
const outputs = new WeakMap<AnyToolDef, JsonSchema>();

export function inputJsonSchema(def: AnyToolDef): JsonSchema {
  let schema = inputs.get(def);
  if (!schema) {
    schema = convert(z.strictObject(def.input.shape), "input");
    inputs.set(def, schema);
  }
  return schema;
}

/**
 * The output schema admits the success shape or the error envelope: MCP clients (the SDK's included)
 * validate structuredContent against outputSchema even when `isError` is set, and our errors carry
 * `structuredContent: { error }`. Top-level `type: "object"` is kept, as MCP requires.
 */
export function outputJsonSchema(def: AnyToolDef): JsonSchema {
  let schema = outputs.get(def);
  if (!schema) {
    schema = deepFreeze({
      type: "object",
      anyOf: [convert(def.output, "output"), ERROR_BRANCH],
    });
    outputs.set(def, schema);
  }
  return schema;
}

/**
 * The error branch repeats in every tool's outputSchema, and every word of tools/list is paid for in each
 * agent's context: its field descriptions are dropped (the names and the code enum say it all).
 */
const ERROR_BRANCH = withoutDescriptions(convert(errorResultSchema, "output"));

function withoutDescriptions(schema: JsonSchema): JsonSchema {
  return deepFreeze(JSON.parse(JSON.stringify(schema, (key, value) => key === "description" ? undefined : value)));
}

function convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return deepFreeze(json);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
