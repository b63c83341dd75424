/**
 * Article identifiers as callers paste them: PMIDs (`12345678`, `PMID:12345678`), PMCIDs (`PMC3299399`,
 * a versioned `PMC3299399.1`, a pmc.ncbi.nlm.nih.gov URL) and DOIs (`10.1093/nar/gks1195`, `doi:...`,
 * `https://doi.org/...`). Each is reduced to its canonical form and type.
 */

export type ArticleIdType = "pmid" | "pmcid" | "doi";

export interface ArticleId {
  type: ArticleIdType;
  /** Canonical: digits, `PMC` + digits, or the bare DOI as given (DOIs compare case-insensitively). */
  id: string;
}

const PMID = /^(?:pmid:?\s*)?0*(\d{1,9})$/i;
const PMCID =
  /^(?:https?:\/\/(?:pmc\.ncbi\.nlm\.nih\.gov|www\.ncbi\.nlm\.nih\.gov\/pmc)\/articles\/)?(pmc\d{1,9})(?:\.\d+)?\/?$/i;
const DOI = /^(?:doi:\s*|https?:\/\/(?:dx\.)?doi\.org\/)?(10\.\d{4,9}\/\S+)$/i;

/**
 * @example parseArticleId("https://doi.org/10.1093/nar/gks1195") // { type: "doi", id: "10.1093/nar/gks1195" }
 * @example parseArticleId("pmc3299399") // { type: "pmcid", id: "PMC3299399" }
 */
export function parseArticleId(raw: string): ArticleId | undefined {
  const text = raw.trim();
  const pmid = PMID.exec(text);
  if (pmid && pmid[1] !== "0".repeat(pmid[1].length)) return { type: "pmid", id: String(Number(pmid[1])) };
  const pmcid = PMCID.exec(text);
  if (pmcid) return { type: "pmcid", id: pmcid[1].toUpperCase() };
  const doi = DOI.exec(text);
  if (doi) return { type: "doi", id: doi[1] };
  return undefined;
}
