/** The arXiv taxonomy as a resource: the same data list_categories serves, in one JSON document. */
import type { ResourceDef } from "../tool_def.ts";
import { ARXIV_CATEGORIES, arxivGroups } from "../../sources/arxiv/taxonomy.ts";

export const ARXIV_TAXONOMY_URI = "papers://arxiv/taxonomy";

export const arxivTaxonomyResource: ResourceDef = {
  toolset: "papers",
  name: "arxiv-taxonomy",
  title: "arXiv category taxonomy",
  description: "Every arXiv category code with its name, group and active flag (retired codes included).",
  mimeType: "application/json",
  uri: ARXIV_TAXONOMY_URI,
  read: (uri) =>
    Promise.resolve([{
      uri,
      mimeType: "application/json",
      text: JSON.stringify({ groups: arxivGroups(), categories: ARXIV_CATEGORIES }),
    }]),
};
