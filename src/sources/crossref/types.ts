/** Records read from the Crossref REST API. No MCP types here. */

export interface CrossrefAuthor {
  family?: string;
  given?: string;
  /** An organisation as author. */
  name?: string;
}

/** One `update-to` / `updated-by` relation: a notice (retraction, correction…) and the work it updates. */
export interface CrossrefUpdate {
  /** `retraction`, `correction`, `expression_of_concern`, `withdrawal`, `removal`, … as Crossref writes it. */
  type: string;
  /** The notice's DOI for `updated-by`; the updated work's DOI for `update-to`. */
  doi?: string;
  label?: string;
  /** `publisher` or `retraction-watch`. */
  source?: string;
  /** YYYY-MM-DD (or shorter) */
  date?: string;
}

export interface CrossrefWork {
  doi: string;
  title?: string;
  authors: CrossrefAuthor[];
  /** Journal or book title. */
  containerTitle?: string;
  shortContainerTitle?: string;
  volume?: string;
  issue?: string;
  page?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD from `issued`. */
  issued?: string;
  type?: string;
  publisher?: string;
  issn?: string;
  url?: string;
  /** `subtitle[0]`. */
  subtitle?: string;
  /** `article-number`: the locator of journals without pages (Scientific Reports, eLife, PLOS…). */
  articleNumber?: string;
  publisherLocation?: string;
  /** `subtype` of posted-content: `preprint`, `blog`, `other`… */
  subtype?: string;
  editors?: CrossrefAuthor[];
  isbn?: string[];
  /** The conference of a proceedings article. */
  event?: { name?: string; location?: string };
  /** The first `institution` (a report's issuer, a thesis's university, a preprint server). */
  institution?: { name: string; place?: string; department?: string };
  /** `degree[0]` of a dissertation ("PhD Thesis"). */
  degree?: string;
  edition?: string;
  language?: string;
  /** Notices that update this work (`updated-by`): a retraction notice appears here. */
  updatedBy: CrossrefUpdate[];
  /** Works this record updates (`update-to`): set when the record IS a notice. */
  updateTo: CrossrefUpdate[];
}
