/**
 * The catalogue as a server uses it: every listing answered from the generated manifest
 * (src/generated/manifest.json, see src/manifest.ts), and a toolset's ToolDefs and ResourceDefs imported
 * on the first call that needs them. A server that is started, listed and never called loads no tool
 * module, its zod schemas, sources or parsers; that is most of what a cold start used to cost.
 */
import MANIFEST from "./generated/manifest.json" with { type: "json" };
import type { ToolsetName } from "./config.ts";
import type { ToolAnnotations } from "./core/tool_def.ts";
import type { AnyToolDef, ResourceDef } from "./tools/tool_def.ts";

/** One tool as tools/list shows it, plus its toolset. */
export interface ToolInfo {
  /** The name clients call it by. */
  name: string;
  /** A short human-readable title. */
  title: string;
  /** The toolset it belongs to. */
  toolset: ToolsetName;
  /** Its description, written for a model. */
  description: string;
  /** The input JSON Schema tools/list advertises (src/core/json_schema.ts). */
  inputSchema: { type: "object" } & Record<string, unknown>;
  /** The output JSON Schema tools/list advertises. */
  outputSchema: { type: "object" } & Record<string, unknown>;
  /** MCP annotations. */
  annotations: ToolAnnotations;
}

/**
 * One resource as resources/list and resources/templates/list show it: its ResourceDef's metadata, and
 * `listed` when it has instances to list (its ResourceDef has `list`, so resources/list imports its toolset).
 */
export type ResourceInfo = Pick<ResourceDef, "name" | "title" | "description" | "mimeType" | "uri" | "uriTemplate"> & {
  /** The toolset it belongs to. */
  toolset: ToolsetName;
  listed: boolean;
};

/** src/generated/manifest.json: every toolset's tools and resources, in catalogue order. */
export interface Manifest {
  /** Each toolset with its tools and resources. */
  toolsets: { name: string; tools: ToolInfo[]; resources: ResourceInfo[] }[];
}

/** What importing one toolset gives. */
export interface ToolsetModule {
  /** Its ToolDefs, in catalogue order. */
  tools: readonly AnyToolDef[];
  /** Its ResourceDefs. */
  resources: readonly ResourceDef[];
}

/** How each toolset is imported: the only references from the serving path to tool modules. */
export type ToolsetLoaders = Record<ToolsetName, () => Promise<ToolsetModule>>;

/** Toolsets already evaluated in this process (src/catalog.ts hands them over when it is imported). */
const evaluated = new Map<string, ToolsetModule>();

/**
 * Called by src/catalog.ts: whoever imported the eager catalogue (mod.ts, the CLI's help, a bundle or a
 * compiled binary, whose files are not on disk) has every toolset already, and no import by path is made.
 */
export function provideToolsets(toolsets: readonly ({ name: ToolsetName } & ToolsetModule)[]): void {
  for (const { name, tools, resources } of toolsets) evaluated.set(name, { tools, resources });
}

/**
 * Imports `src/tools/<name>/mod.ts` by a computed URL. A literal `import("./tools/…")` would be followed by
 * Deno when it builds the module graph at start: reading every tool module, and resolving each npm
 * specifier in them under the node_modules lock, cost 15–25 ms of a cold start whether or not a tool is
 * ever called. A computed specifier is loaded on the first call instead; that needs read permission on
 * ./src, which every permission set grants (src/preflight.ts checks it at start).
 */
async function importToolset(name: ToolsetName): Promise<ToolsetModule> {
  const ready = evaluated.get(name);
  if (ready) return ready;
  const url = new URL(`./tools/${name}/mod.ts`, import.meta.url);
  const module = await import(url.href);
  const tools = module[`${name}Tools`], resources = module[`${name}Resources`];
  if (!Array.isArray(tools) || !Array.isArray(resources)) throw new Error(`${url.pathname} exports no ${name}Tools`);
  return { tools, resources };
}

/** How the server imports each toolset. */
export const TOOLSET_LOADERS: ToolsetLoaders = {
  pubmed: () => importToolset("pubmed"),
  gene: () => importToolset("gene"),
  pubchem: () => importToolset("pubchem"),
  papers: () => importToolset("papers"),
  pdf: () => importToolset("pdf"),
};

/** Every tool of every toolset, imported now, in catalogue order (the CLI's `help <tool>`). */
export async function allToolDefs(loaders: ToolsetLoaders = TOOLSET_LOADERS): Promise<AnyToolDef[]> {
  const modules = await Promise.all((MANIFEST as Manifest).toolsets.map((t) => loaders[t.name as ToolsetName]()));
  return modules.flatMap((m) => m.tools);
}

/** The enabled part of the catalogue: listings at once, definitions on demand. */
export interface Catalogue {
  /** The enabled tools, in catalogue order, as tools/list shows them. */
  readonly tools: readonly ToolInfo[];
  /** The enabled resources, in catalogue order. */
  readonly resources: readonly ResourceInfo[];
  /** The ToolDef of an enabled tool (importing its toolset), or undefined for any other name. */
  tool(name: string): Promise<AnyToolDef | undefined>;
  /** The ResourceDef behind one of {@link resources} (importing its toolset). */
  resource(info: ResourceInfo): Promise<ResourceDef>;
}

/**
 * A catalogue of `toolsets` over the generated manifest. Each toolset is imported once: concurrent first
 * calls share one import; a failed import (rejected promise) is forgotten, so the next call tries again.
 */
export function lazyCatalogue(
  toolsets: readonly ToolsetName[],
  loaders: ToolsetLoaders = TOOLSET_LOADERS,
  manifest: Manifest = MANIFEST as Manifest,
): Catalogue {
  const enabled = manifest.toolsets.filter((t) => toolsets.includes(t.name as ToolsetName));
  const loading = new Map<string, Promise<ToolsetModule>>();
  const load = (toolset: string): Promise<ToolsetModule> => {
    let module = loading.get(toolset);
    if (!module) {
      const started = Promise.resolve().then(() => loaders[toolset as ToolsetName]());
      loading.set(toolset, started);
      started.catch(() => loading.get(toolset) === started && loading.delete(toolset));
      module = started;
    }
    return module;
  };
  const tools = enabled.flatMap((t) => t.tools);
  const toolsetOf = new Map(tools.map((t) => [t.name, t.toolset]));
  return {
    tools,
    resources: enabled.flatMap((t) => t.resources),
    async tool(name) {
      const toolset = toolsetOf.get(name);
      if (toolset === undefined) return undefined;
      const def = (await load(toolset)).tools.find((t) => t.name === name);
      if (!def) throw new Error(`the ${toolset} toolset has no tool '${name}': run \`deno task docs\``);
      return def;
    },
    async resource(info) {
      const def = (await load(info.toolset)).resources.find((r) => r.name === info.name);
      if (!def) throw new Error(`the ${info.toolset} toolset has no resource '${info.name}': run \`deno task docs\``);
      return def;
    },
  };
}
