/** The pubchem toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../../core/tool_def.ts";

export const pubchemTools: AnyToolDef[] = [];
export const pubchemResources: ResourceDef[] = [];
