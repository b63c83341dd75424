/** Records read from PubMed Central (EFetch db=pmc, JATS XML). No MCP types here. */

export interface PmcSection {
  /** "1. Introduction"; empty for body text before the first section. */
  heading: string;
  /** The section's text: paragraphs, `###` subsections, lists, tables, formulas, figure captions. A last
   * section "Figures and tables" holds the floats PMC moves to `<floats-group>` after the back matter. */
  text: string;
}

/** An abstract besides the main one: a PLoS "Author Summary", a graphical or teaser abstract, a translation. */
export interface PmcAbstract {
  /** `abstract-type` as given ("summary", "graphical", "teaser", "editor", …), or "trans-abstract" for a translation. */
  type: string;
  /** Its own title, else one made from the type: "Author Summary", "Graphical abstract". */
  heading: string;
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
  /** Every other abstract, in document order, labelled by its type. */
  otherAbstracts: PmcAbstract[];
  /** False when PMC withheld the full text (publisher does not allow XML download). */
  hasBody: boolean;
  sections: PmcSection[];
  /** Acknowledgments, appendices, notes (everything in `<back>` but the references). */
  backMatter: string;
  /** One line per reference, in order. */
  references: string[];
  /** Decision letters, author responses, reviews (`<sub-article>`), in document order. */
  subArticles: PmcSection[];
}
