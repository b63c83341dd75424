/**
 * The JSON Schemas tools/list advertises. Converting every zod schema costs tens of milliseconds at each
 * start, so `deno task docs` writes them ahead of time to src/generated/tool_schemas.json and a catalogue
 * tool is answered from that file; any other ToolDef (test fixtures, extensions) is converted from zod.
 * tests/core/tool_schemas_test.ts and tests/cli/docs_drift_test.ts fail when the file no longer matches zod.
 */
import GENERATED from "./generated/tool_schemas.json" with { type: "json" };
import { ALL_TOOLS } from "./catalog.ts";
import { listedInputSchema, outputJsonSchema } from "./core/json_schema.ts";
import type { AnyToolDef } from "./tools/tool_def.ts";

/** The two schemas of one tool as tools/list shows them. */
export interface AdvertisedSchemas {
  inputSchema: { type: "object" } & Record<string, unknown>;
  outputSchema: { type: "object" } & Record<string, unknown>;
}

/** Where `deno task docs` writes {@link renderToolSchemas}. */
export const TOOL_SCHEMAS_FILE = new URL("./generated/tool_schemas.json", import.meta.url);

const generated = GENERATED as unknown as Record<string, AdvertisedSchemas>;
const catalogue = new Set<AnyToolDef>(ALL_TOOLS);

/** The schemas tools/list advertises for `def`: generated for the catalogue's own tools, else from zod. */
export function advertisedSchemas(def: AnyToolDef): AdvertisedSchemas {
  const ahead = catalogue.has(def) ? generated[def.name] : undefined;
  return ahead ?? convertedSchemas(def);
}

/** The schemas converted from zod now (src/core/json_schema.ts): what the generated file must hold. */
export function convertedSchemas(def: AnyToolDef): AdvertisedSchemas {
  return {
    inputSchema: listedInputSchema(def) as AdvertisedSchemas["inputSchema"],
    outputSchema: outputJsonSchema(def) as AdvertisedSchemas["outputSchema"],
  };
}

/** The whole of src/generated/tool_schemas.json: every catalogue tool's schemas, by name, in catalogue order. */
export function renderToolSchemas(): string {
  return JSON.stringify(Object.fromEntries(ALL_TOOLS.map((def) => [def.name, convertedSchemas(def)])), null, 2) + "\n";
}
