/**
 * OpenAlex `/works` search parameters (developers.openalex.org, Search works / Filter works): `search=`
 * over title, abstract and full text; the publication date range and any further filters the caller
 * gives (`is_oa:true`, `type:review`, `title.search:...`); relevance, date or citation order.
 */

export type SearchSort = "relevance" | "date" | "citations";

export interface OpenAlexSearch {
  query: string;
  from?: string;
  to?: string;
  /** More filters in OpenAlex syntax, e.g. `is_oa:true,type:review`. */
  extraFilter?: string;
  sort: SearchSort;
}

export interface WorksSearchParams {
  /** Absent when only filters select the works (an author's works). */
  search?: string;
  filter?: string;
  sort: string;
}

const SORT_KEYS: Record<SearchSort, string> = {
  relevance: "relevance_score:desc",
  date: "publication_date:desc",
  citations: "cited_by_count:desc",
};

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/**
 * @example worksSearchParams({ query: "malaria", from: "2020-01-01", sort: "citations" })
 *   // { search: "malaria", filter: "from_publication_date:2020-01-01", sort: "cited_by_count:desc" }
 */
export function worksSearchParams(s: OpenAlexSearch): WorksSearchParams {
  const filters = [
    s.from ? `from_publication_date:${s.from}` : "",
    s.to ? `to_publication_date:${s.to}` : "",
    s.extraFilter ?? "",
  ].filter(Boolean);
  const search = s.query.replace(CONTROL, " ").trim();
  // Relevance needs search words: filters alone (an author's works) are listed newest first.
  const sort = !search && s.sort === "relevance" ? "date" : s.sort;
  return {
    ...(search ? { search } : {}),
    ...(filters.length ? { filter: filters.join(",") } : {}),
    sort: SORT_KEYS[sort],
  };
}
