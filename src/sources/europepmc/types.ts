/** Records read from the Europe PMC REST API (search results, full text). No MCP types here. */

/** Europe PMC's record sources: MED (PubMed), PMC, PPR (preprints), PAT (patents), AGR (Agricola), ... */
export type EuropePmcSource = string;

export interface EuropePmcRecord {
  /** The id within its source: a PMID for MED, `PPR1036674` for a preprint, `IND608974682` for Agricola. */
  id: string;
  source: EuropePmcSource;
  pmid?: string;
  pmcid?: string;
  doi?: string;
  title: string | null;
  /** As listed ("Schoenfeld JD"), in order. */
  authors: string[];
  /** YYYY-MM-DD first publication, else the year. */
  date: string | null;
  /** Journal title, or the preprint server (bioRxiv, medRxiv) for a preprint. */
  venue?: string;
  abstract?: string;
  /** Source PPR or publication type "preprint". */
  preprint: boolean;
  pubTypes: string[];
  /** Set when the record is a retracted publication; `notice` names the retraction notice when given. */
  retracted?: { notice?: string };
  citedByCount?: number;
  isOpenAccess: boolean;
  /** Europe PMC holds its full text (fullTextXML answers for these ids). */
  fullTextIds: string[];
  /** The licence Europe PMC states (`cc by`), when it states one. */
  license?: string;
  /** Open PDF links of `fullTextUrlList` (Europe PMC's rendering of the PMC copy first). */
  pdfUrls?: string[];
}

export interface EuropePmcPage {
  hitCount: number;
  /** Cursor of the next page; absent (or equal to the one sent) on the last. */
  nextCursor?: string;
  records: EuropePmcRecord[];
}
