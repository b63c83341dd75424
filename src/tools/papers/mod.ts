/** The papers toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../tool_def.ts";
import { papersChartResource } from "./chart_resource.ts";
import { convertArticleIds } from "./convert_article_ids.ts";
import { citationTools } from "./citations/mod.ts";
import { fetchContent } from "./fetch_content.ts";
import { fetchLatest } from "./fetch_latest.ts";
import { fetchTopCited } from "./fetch_top_cited.ts";
import { findAuthor } from "./find_author.ts";
import { generatePublicationTrend } from "./generate_publication_trend.ts";
import { listCategories } from "./list_categories.ts";
import { savePaper } from "./save_paper.ts";
import { searchPapers } from "./search_papers.ts";
import { arxivTaxonomyResource } from "./resources.ts";

export const papersTools: AnyToolDef[] = [
  searchPapers,
  fetchLatest,
  fetchTopCited,
  findAuthor,
  listCategories,
  fetchContent,
  savePaper,
  convertArticleIds,
  generatePublicationTrend,
  ...citationTools,
];
export const papersResources: ResourceDef[] = [arxivTaxonomyResource, papersChartResource];
