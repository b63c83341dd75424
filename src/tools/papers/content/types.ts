/** The full text of one paper with its metadata, as fetch_content caches and pages it. */
import type { Warning } from "../schemas.ts";

/** html/ar5iv/pdf: arXiv and publisher copies; jats: PubMed Central or Europe PMC XML; abstract: no full text. */
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
  /** The record says the paper was retracted (PubMed/Europe PMC "Retracted Publication", OpenAlex). */
  retracted?: boolean;
  /** The retraction notice (`MED:41926417 …`), when the record links one. */
  retraction_notice?: string;
}

export interface ContentDoc {
  meta: ContentMeta;
  text: string;
  format: ContentFormat;
  /** Where the text came from (credential-free). */
  contentUrl: string;
  warnings: Warning[];
  /** Every source tried before the text was found (or before falling back to the abstract), and why it failed. */
  tried?: TriedSource[];
  /** A fallback made while some source was only busy or failing: not cached, so a later call may find the text. */
  transient?: boolean;
}

/** One source tried: what, the request (for machines and the log, never the text; #34), and its outcome. */
export interface TriedSource {
  what: string;
  request_url: string;
  outcome: string;
}
