/** Records read from the OpenAlex API. No MCP types here. */

export interface OpenAlexLocation {
  landingPageUrl?: string;
  pdfUrl?: string;
  isOa: boolean;
  /** publishedVersion, acceptedVersion, submittedVersion. */
  version?: string;
  license?: string;
  sourceName?: string;
}

export interface OpenAlexWork {
  /** Short id: `W2741809807`. */
  id: string;
  title?: string;
  authors: string[];
  /** YYYY-MM-DD */
  publicationDate?: string;
  doi?: string;
  type?: string;
  citedByCount?: number;
  isOa: boolean;
  /** Best open-access PDF link, when OpenAlex knows one. */
  pdfUrl?: string;
  /** Open-access locations, best first (best_oa_location, then the others). */
  oaLocations: OpenAlexLocation[];
  /** Rebuilt from `abstract_inverted_index`; absent when OpenAlex has none. */
  abstract?: string;
  /** arXiv id when one location is an arXiv abstract page (full text then comes from arXiv). */
  arxivId?: string;
  venue?: string;
  /** From `ids`: the PubMed and PMC ids OpenAlex links the work to. */
  pmid?: string;
  pmcid?: string;
  /** OpenAlex's `is_retracted` (absent when the answer did not carry the field). */
  isRetracted?: boolean;
  /** Volume, issue and pages from `biblio`. */
  biblio?: { volume?: string; issue?: string; firstPage?: string; lastPage?: string };
}

export interface OpenAlexListMeta {
  count: number;
  perPage?: number;
  nextCursor?: string;
}

export interface OpenAlexEntity {
  /** Short id: `T11636`, `fields/27`, `subfields/2718`, `domains/4`, `C71924100`. */
  id: string;
  name: string;
  level: "domain" | "field" | "subfield" | "topic" | "concept";
  /** Parent in the hierarchy (`domains/4` for a field), when known. */
  parent?: string;
  parentName?: string;
  worksCount?: number;
  description?: string;
}
