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
      anyOf: [convert(def.output, "output"), convert(errorResultSchema, "output")],
    });
    outputs.set(def, schema);
  }
  return schema;
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
