/**
 * OpenAlex `/works` search parameters (developers.openalex.org, Search works / Filter works): `search=`
 * for title, abstract and full text; `title.search`, `abstract.search`, `raw_author_name.search` filters
 * for one field; publication date range, open access and type filters; relevance, date or citation order.
 */

export type OpenAlexField = "all" | "title" | "abstract" | "author";
export type SearchSort = "relevance" | "date" | "citations";

export interface OpenAlexSearch {
  query: string;
  field: OpenAlexField;
  from?: string;
  to?: string;
  openAccess?: boolean;
  type?: string;
  sort: SearchSort;
}

export interface WorksSearchParams {
  search?: string;
  filter?: string;
  sort?: string;
}

const FIELD_FILTER: Record<Exclude<OpenAlexField, "all">, string> = {
  title: "title.search",
  abstract: "abstract.search",
  author: "raw_author_name.search",
};

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/**
 * @example worksSearchParams({ query: "malaria", field: "all", from: "2020-01-01", sort: "citations" })
 *   // { search: "malaria", filter: "from_publication_date:2020-01-01", sort: "cited_by_count:desc" }
 */
export function worksSearchParams(s: OpenAlexSearch): WorksSearchParams {
  const text = s.query.replace(CONTROL, " ").trim();
  const filters: string[] = [];
  // A comma separates filters and `|` ORs values, so neither may appear inside a filter's search text.
  if (s.field !== "all") filters.push(`${FIELD_FILTER[s.field]}:${text.replace(/[,|]/g, " ").trim()}`);
  if (s.from) filters.push(`from_publication_date:${s.from}`);
  if (s.to) filters.push(`to_publication_date:${s.to}`);
  if (s.openAccess !== undefined) filters.push(`is_oa:${s.openAccess}`);
  if (s.type) filters.push(`type:${s.type}`);
  const sort = s.sort === "date"
    ? "publication_date:desc"
    : s.sort === "citations"
    ? "cited_by_count:desc"
    : s.field === "all"
    ? "relevance_score:desc"
    : undefined; // filter searches are already ranked by relevance; relevance_score needs `search=`
  return {
    ...(s.field === "all" ? { search: text } : {}),
    ...(filters.length ? { filter: filters.join(",") } : {}),
    ...(sort ? { sort } : {}),
  };
}
