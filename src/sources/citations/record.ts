/**
 * The record every citation style formats: the bibliographic part of a PubMed article, which a Crossref,
 * OpenAlex or arXiv record fills as far as it can. A {@link PubMedArticle} is one as it stands.
 */
import type { BookInfo, JournalInfo, PubMedAuthor, PubMedRecordType } from "../ncbi/pubmed/types.ts";
import { doiUrl } from "../doi_url.ts";
import { pubmedUrl } from "../ncbi/pubmed/url.ts";
import type { WorkUpdate } from "../works/updates.ts";

export interface CitationRecord {
  recordType: PubMedRecordType;
  title: string;
  vernacularTitle?: string;
  abstractText?: string;
  authors: PubMedAuthor[];
  journalInfo: JournalInfo;
  keywords: string[];
  languages: string[];
  book?: BookInfo;
  doi?: string;
  pmid?: string;
  pmcId?: string;
  arxivId?: string;
  /** OpenAlex W id. */
  openalexId?: string;
  /** Where the record came from ("PubMed", "Crossref", "OpenAlex", "arXiv"): RIS `DB`. */
  database?: string;
  /** Corrections, expressions of concern, retractions: notices a reader citing the work must know of. */
  updates?: WorkUpdate[];
}

/** The record's own page when it has no DOI: PubMed, then arXiv, then OpenAlex. */
export function recordPage(r: CitationRecord): string | undefined {
  if (r.pmid) return pubmedUrl(r.pmid);
  if (r.arxivId) return `https://arxiv.org/abs/${r.arxivId}`;
  if (r.openalexId) return `https://openalex.org/${r.openalexId}`;
  return undefined;
}

/** The link a reference ends with: the DOI, else the record's page. */
export function recordLink(r: CitationRecord): string | undefined {
  return r.doi ? doiUrl(r.doi) : recordPage(r);
}

/** The id that makes a citation key unique: PMID, else arXiv id, W id or DOI (characters a key cannot hold dropped). */
export function recordKeyId(r: CitationRecord): string {
  const id = r.pmid ?? r.arxivId ?? r.openalexId ?? r.doi ?? "";
  return id.replace(/[^A-Za-z0-9.]/g, "");
}
