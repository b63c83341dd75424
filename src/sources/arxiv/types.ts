/** Records read from the arXiv API (Atom) and arXiv web pages. No MCP types here. */

export interface ArxivEntry {
  /** Versioned id as arXiv reports it: `2104.12255v1`, `cond-mat/0607501v2`. */
  id: string;
  title: string;
  authors: string[];
  summary: string;
  /** First-version submission time (ISO 8601). */
  published: string;
  /** This version's time (ISO 8601). */
  updated: string;
  primaryCategory?: string;
  categories: string[];
  absUrl: string;
  pdfUrl?: string;
  doi?: string;
  journalRef?: string;
  comment?: string;
}

export interface ArxivFeed {
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  entries: ArxivEntry[];
}
