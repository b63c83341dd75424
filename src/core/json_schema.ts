/**
 * JSON Schemas advertised in tools/list, derived from the zod schemas (never written by hand).
 */
import { z } from "zod";
import { errorResultSchema } from "./errors.ts";
import type { AnyToolDef } from "./tool_def.ts";

type JsonSchema = Record<string, unknown>;

export function inputJsonSchema(def: AnyToolDef): JsonSchema {
  const schema = z.toJSONSchema(z.strictObject(def.input.shape), { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete schema.$schema;
  return schema;
}

/**
 * The output schema admits the success shape or the error envelope: MCP clients (the SDK's included)
 * validate structuredContent against outputSchema even when `isError` is set, and our errors carry
 * `structuredContent: { error }`. Top-level `type: "object"` is kept, as MCP requires.
 */
export function outputJsonSchema(def: AnyToolDef): JsonSchema {
  const success = z.toJSONSchema(def.output, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const failure = z.toJSONSchema(errorResultSchema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  delete success.$schema;
  delete failure.$schema;
  return { type: "object", anyOf: [success, failure] };
}
