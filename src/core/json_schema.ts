/**
 * JSON Schemas advertised in tools/list, derived from the zod schemas (never written by hand). Converting
 * costs 10–25 ms per catalogue, so each ToolDef's schemas are built once and shared (they are frozen).
 *
 * tools/list is paid for in every conversation, so the schemas carry what a model or a validating client
 * needs and no more (tests/contract/tools_list_budget_test.ts holds the budget):
 * - zod's `±2^53` bounds of every integer are dropped (they say "an integer", which `type` already does);
 * - output schemas keep types, enums, required keys and constraints, but not descriptions or
 *   `additionalProperties: false` (the tool description and field names say what comes back; strictness is
 *   checked by zod before a result leaves the server);
 * - input schemas keep descriptions (a model fills them in) and reject unknown keys at the top only.
 */
import { z } from "zod";
import type { AnyToolDef } from "./tool_def.ts";

type JsonSchema = Readonly<Record<string, unknown>>;

const inputs = new WeakMap<AnyToolDef, JsonSchema>();
const outputs = new WeakMap<AnyToolDef, JsonSchema>();

export function inputJsonSchema(def: AnyToolDef): JsonSchema {
  let schema = inputs.get(def);
  if (!schema) {
    const json = prune(convert(z.strictObject(def.input.shape), "input"), { descriptions: true });
    schema = deepFreeze({ ...json, additionalProperties: false });
    inputs.set(def, schema);
  }
  return schema;
}

/**
 * The output schema admits the success shape or the error envelope: the SDK's client validates
 * structuredContent against outputSchema even when `isError` is set (client/index.js, callTool), and our
 * errors carry `structuredContent: { error }`. The error branch repeats in every tool, so it names only
 * the envelope's required keys (codes and meanings are in the error text and the server instructions).
 * Top-level `type: "object"` is kept, as MCP requires.
 */
export function outputJsonSchema(def: AnyToolDef): JsonSchema {
  let schema = outputs.get(def);
  if (!schema) {
    schema = deepFreeze({
      type: "object",
      anyOf: [prune(convert(def.output, "output"), { descriptions: false }), ERROR_BRANCH],
    });
    outputs.set(def, schema);
  }
  return schema;
}

const ERROR_BRANCH: JsonSchema = {
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message", "recovery_hint"] } },
};

/** Machine-only keywords that cost characters without telling a reader or a validator anything useful. */
function prune(schema: JsonSchema, keep: { descriptions: boolean }): JsonSchema {
  const safe = Number.MAX_SAFE_INTEGER;
  return JSON.parse(JSON.stringify(schema, function (this: Record<string, unknown>, key, value) {
    if (key === "description" && !keep.descriptions && typeof value === "string") return undefined;
    if (key === "additionalProperties" && value === false) return undefined;
    if ((key === "minimum" && value === -safe) || (key === "maximum" && value === safe)) return undefined;
    return value;
  }));
}

function convert(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
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
