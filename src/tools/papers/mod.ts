/** The papers toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../tool_def.ts";
import { fetchContent } from "./fetch_content.ts";
import { fetchLatest } from "./fetch_latest.ts";
import { fetchTopCited } from "./fetch_top_cited.ts";
import { listCategories } from "./list_categories.ts";
import { arxivTaxonomyResource } from "./resources.ts";

export const papersTools: AnyToolDef[] = [fetchLatest, fetchTopCited, listCategories, fetchContent];
export const papersResources: ResourceDef[] = [arxivTaxonomyResource];
