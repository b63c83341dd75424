/** The gene toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../tool_def.ts";
import { getGene } from "./get_gene.ts";
import { getPubmedLinks } from "./get_pubmed_links.ts";
import { searchGenes } from "./search_genes.ts";

export const geneTools: AnyToolDef[] = [searchGenes, getGene, getPubmedLinks];
export const geneResources: ResourceDef[] = [];
