/** Records read from the NCBI PMC ID Converter API. No MCP types here. */

export interface IdRecord {
  /** The id as it was sent. */
  requestedId: string;
  pmid?: string;
  /** `PMC3299399` */
  pmcid?: string;
  doi?: string;
  /** NIH manuscript id (`NIHMS857349`), when the article has one. */
  mid?: string;
  /** The converter's own message for an id it could not convert ("Identifier not found in PMC"). */
  error?: string;
}
