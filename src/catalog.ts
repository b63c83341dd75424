/**
 * The tool catalogue: every ToolDef and ResourceDef, grouped into toolsets. MCP registration, the CLI,
 * docs/tools.md and the contract tests all read this list.
 */
import type { ToolsetName } from "./config.ts";
import type { AnyToolDef, ResourceDef } from "./tools/tool_def.ts";
import { provideToolsets } from "./lazy_catalog.ts";
import { geneResources, geneTools } from "./tools/gene/mod.ts";
import { papersResources, papersTools } from "./tools/papers/mod.ts";
import { pdfResources, pdfTools } from "./tools/pdf/mod.ts";
import { pubchemResources, pubchemTools } from "./tools/pubchem/mod.ts";
import { pubmedResources, pubmedTools } from "./tools/pubmed/mod.ts";

/** A named group of tools and resources, enabled together (SCIENCE_MCP_TOOLSETS). */
export interface Toolset {
  /** The toolset's name. */
  name: ToolsetName;
  /** Its tools, in catalogue order. */
  tools: readonly AnyToolDef[];
  /** Its resources. */
  resources: readonly ResourceDef[];
}

/** Every toolset, in catalogue order. */
export const TOOLSETS: readonly Toolset[] = [
  { name: "pubmed", tools: pubmedTools, resources: pubmedResources },
  { name: "gene", tools: geneTools, resources: geneResources },
  { name: "pubchem", tools: pubchemTools, resources: pubchemResources },
  { name: "papers", tools: papersTools, resources: papersResources },
  { name: "pdf", tools: pdfTools, resources: pdfResources },
];

provideToolsets(TOOLSETS);

/** Every tool of every toolset, in catalogue order. */
export const ALL_TOOLS: readonly AnyToolDef[] = TOOLSETS.flatMap((t) => t.tools);

/** The tools of the given toolsets, in catalogue order. */
export function enabledTools(toolsets: readonly ToolsetName[]): AnyToolDef[] {
  return TOOLSETS.filter((t) => toolsets.includes(t.name)).flatMap((t) => t.tools);
}

/** The resources of the given toolsets. */
export function enabledResources(toolsets: readonly ToolsetName[]): ResourceDef[] {
  return TOOLSETS.filter((t) => toolsets.includes(t.name)).flatMap((t) => t.resources);
}
