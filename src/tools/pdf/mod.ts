/** The pdf toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../../core/tool_def.ts";

export const pdfTools: AnyToolDef[] = [];
export const pdfResources: ResourceDef[] = [];
