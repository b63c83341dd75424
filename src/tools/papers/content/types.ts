/** The full text of one paper with its metadata, as fetch_content caches and pages it. */
import type { Warning } from "../schemas.ts";

/** html/ar5iv/pdf: arXiv and publisher copies; jats: PubMed Central XML; abstract: PubMed, no full text. */
export type ContentFormat = "html" | "ar5iv" | "pdf" | "jats" | "abstract";

export interface ContentMeta {
  id: string;
  title: string | null;
  authors: string[];
  date: string | null;
  updated?: string;
  abstract?: string;
  doi?: string;
  pdf_url?: string;
  /** Landing page (arXiv abstract page, DOI or OpenAlex record). */
  url: string;
  categories?: string[];
  journal_ref?: string;
  comment?: string;
  venue?: string;
  type?: string;
  cited_by_count?: number;
}

export interface ContentDoc {
  meta: ContentMeta;
  text: string;
  format: ContentFormat;
  /** Where the text came from (credential-free). */
  contentUrl: string;
  warnings: Warning[];
}
