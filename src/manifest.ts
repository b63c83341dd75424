/**
 * The catalogue's manifest: what tools/list, resources/list and the prompts need, without a tool module.
 * Importing the toolsets (their zod schemas, sources and parsers) is most of a cold start, so `deno task
 * docs` writes this to src/generated/manifest.json ahead of time; the server answers from that file and
 * imports a toolset on its first call (src/lazy_catalog.ts). tests/core/manifest_test.ts and
 * tests/cli/docs_drift_test.ts fail when the file no longer matches the zod catalogue.
 */
import { TOOLSETS } from "./catalog.ts";
import { listedInputSchema, outputJsonSchema } from "./core/json_schema.ts";
import type { Catalogue, Manifest, ResourceInfo, ToolInfo } from "./lazy_catalog.ts";
import type { AnyToolDef, ResourceDef } from "./tools/tool_def.ts";

/** Where `deno task docs` writes {@link renderManifest}. */
export const MANIFEST_FILE = new URL("./generated/manifest.json", import.meta.url);

/** What tools/list shows of `def`, its schemas converted from zod now (src/core/json_schema.ts). */
export function toolInfo(def: AnyToolDef): ToolInfo {
  return {
    name: def.name,
    title: def.title,
    toolset: def.toolset,
    description: def.description,
    inputSchema: listedInputSchema(def) as ToolInfo["inputSchema"],
    outputSchema: outputJsonSchema(def) as ToolInfo["outputSchema"],
    annotations: def.annotations,
  };
}

/** What resources/list and resources/templates/list show of `def`, and whether it lists instances. */
export function resourceInfo(def: ResourceDef): ResourceInfo {
  return {
    toolset: def.toolset,
    name: def.name,
    ...(def.title === undefined ? {} : { title: def.title }),
    description: def.description,
    mimeType: def.mimeType,
    ...(def.uri === undefined ? {} : { uri: def.uri }),
    ...(def.uriTemplate === undefined ? {} : { uriTemplate: def.uriTemplate }),
    listed: def.list !== undefined,
  };
}

/** The manifest of the whole catalogue, in catalogue order: what src/generated/manifest.json must hold. */
export function manifest(): Manifest {
  return {
    toolsets: TOOLSETS.map((t) => ({
      name: t.name,
      tools: t.tools.map(toolInfo),
      resources: t.resources.map(resourceInfo),
    })),
  };
}

/** The text of src/generated/manifest.json. */
export function renderManifest(): string {
  return JSON.stringify(manifest(), null, 2) + "\n";
}

/**
 * A catalogue over definitions already in hand (test fixtures, an embedder's own tools): listed from zod
 * now rather than from the generated file.
 */
export function eagerCatalogue(tools: readonly AnyToolDef[], resources: readonly ResourceDef[] = []): Catalogue {
  return {
    tools: tools.map(toolInfo),
    resources: resources.map(resourceInfo),
    tool: (name) => Promise.resolve(tools.find((t) => t.name === name)),
    resource: (info) => Promise.resolve(resources.find((r) => r.name === info.name)!),
  };
}
