/** The pubmed toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../tool_def.ts";
import { fetchArticleDetails } from "./fetch_article_details.ts";
import { getArticleRelationships } from "./get_article_relationships.ts";
import { lookupMesh } from "./lookup_mesh.ts";
import { pubmedStatsResource } from "./pubmed_stats_resource.ts";
import { searchPubMedArticles } from "./search_pubmed_articles.ts";
import { serverInfoResource } from "./server_info_resource.ts";

export const pubmedTools: AnyToolDef[] = [
  searchPubMedArticles,
  fetchArticleDetails,
  getArticleRelationships,
  lookupMesh,
];
export const pubmedResources: ResourceDef[] = [serverInfoResource, pubmedStatsResource];
