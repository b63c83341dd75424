/** Records read from PubMed Central (EFetch db=pmc, JATS XML). No MCP types here. */

export interface PmcSection {
  /** "1. Introduction"; empty for body text before the first section. */
  heading: string;
  /** The section's text: paragraphs, `###` subsections, lists, tables, formulas, figure captions. */
  text: string;
}

export interface PmcArticle {
  /** `PMC3299399` */
  pmcid?: string;
  pmid?: string;
  doi?: string;
  title: string | null;
  /** "Given Surname", in author order. */
  authors: string[];
  /** YYYY-MM-DD, YYYY-MM or YYYY: the electronic, else print, else collection date. */
  date: string | null;
  journal?: string;
  articleType?: string;
  /** PMC marks articles of its open-access subset with `<?properties open_access?>`. */
  openAccess: boolean;
  abstract?: string;
  /** False when PMC withheld the full text (publisher does not allow XML download). */
  hasBody: boolean;
  sections: PmcSection[];
  /** Acknowledgments, appendices, notes (everything in `<back>` but the references). */
  backMatter: string;
  /** One line per reference, in order. */
  references: string[];
}
