/** The citation tools (issue #25), listed with the papers toolset: graph of any work, export, verification. */
import type { AnyToolDef } from "../../tool_def.ts";
import { exportCitations } from "./export_citations.ts";
import { getCitationGraph } from "./get_citation_graph.ts";
import { verifyReferences } from "./verify_references.ts";

export const citationTools: AnyToolDef[] = [getCitationGraph, exportCitations, verifyReferences];
