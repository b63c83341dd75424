/**
 * The tool contract as tools use it: core's ToolDef and ResourceDef bound to this server's ToolContext
 * and toolset names. Every tool file imports `defineTool` from here.
 */
import type { z } from "../core/zod.ts";
import type { ToolsetName } from "../config.ts";
import type { ToolContext } from "../context.ts";
import type * as core from "../core/tool_def.ts";

export { READS_LOCAL, READS_NETWORK, withContent } from "../core/tool_def.ts";
export type { ImageBlock, ResourceContent, ResourceEntry, ToolAnnotations } from "../core/tool_def.ts";
export type { ToolContext };

/** core's ToolDef bound to this server's ToolContext and toolset names: what every tool file defines. */
export type ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> =
  & core.ToolDef<I, O, ToolContext>
  & { toolset: ToolsetName };

/** Any tool of the catalogue. */
// deno-lint-ignore no-explicit-any
export type AnyToolDef = ToolDef<any, any>;

/** core's ResourceDef bound to this server's ToolContext and toolset names. */
export type ResourceDef = core.ResourceDef<ToolContext> & { toolset: ToolsetName };

/** Identity function that lets TypeScript infer I and O from the literal. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}
