/**
 * PubMed records as the adapters return them (no MCP types). Every identifier, page and volume token is a
 * string: "08", "4002.e26" and PMIDs must survive untouched. Absent values are omitted, never "".
 */
import type { WorkUpdate } from "../../works/updates.ts";

export interface PubMedAuthor {
  lastName?: string;
  firstName?: string;
  initials?: string;
  /** All affiliations of the author, joined with "; ". */
  affiliation?: string;
  /** A group author ("Guideline Development Panel ..."); the name fields are then absent. */
  collectiveName?: string;
  /** Bare ORCID iD, e.g. `0000-0002-7367-292X`. */
  orcid?: string;
}

/**
 * A publication date as PubMed gives it, standardised where the source allows: `month` and `day` are two
 * digits. `medlineDate` ("2015 Oct-Dec") and `season` ("Spring", "Jan-Mar") are kept verbatim.
 */
export interface PubMedDate {
  year?: string;
  month?: string;
  day?: string;
  season?: string;
  medlineDate?: string;
}

export interface JournalInfo {
  title?: string;
  isoAbbreviation?: string;
  issn?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  publicationDate: PubMedDate;
}

export interface MeshTerm {
  descriptorName: string;
  qualifierName?: string;
  /** True when the descriptor or this qualifier is a major topic. */
  isMajorTopic: boolean;
  /** Descriptor UI, e.g. `D003863`. */
  ui?: string;
}

export interface Grant {
  grantId?: string;
  agency?: string;
  country?: string;
  acronym?: string;
}

export interface BookInfo {
  bookTitle?: string;
  publisher?: string;
  publisherLocation?: string;
  isbn: string[];
  editors: PubMedAuthor[];
  /** NCBI Bookshelf accession, e.g. `NBK1116`. */
  bookAccession?: string;
  edition?: string;
  /** When a chapter was first contributed (a living book's `Book/PubDate` is the series start). */
  contributionDate?: PubMedDate;
  /** When a chapter was last revised (`DateRevised` of the BookDocument). */
  revisedDate?: PubMedDate;
  /** Span of a series or living book (`BeginningDate`, `EndingDate`). */
  beginningDate?: PubMedDate;
  endingDate?: PubMedDate;
}

/** A retraction notice a record links to (CommentsCorrections RefType="RetractionIn"). */
export interface RetractionNotice {
  /** The notice's citation as PubMed writes it ("Lancet. 2010 Feb 6;375(9713):445. doi: …"). */
  refSource?: string;
  /** The notice's own PMID. */
  pmid?: string;
}

export type PubMedRecordType = "journal_article" | "book" | "book_chapter";

export interface PubMedArticle {
  pmid: string;
  recordType: PubMedRecordType;
  title: string;
  /** Title in the original language, when the article was not written in English. */
  vernacularTitle?: string;
  /** Readable abstract; structured abstracts keep their labels ("BACKGROUND: ..."). */
  abstractText?: string;
  /** `OtherAbstract`s: plain-language, publisher or translated abstracts, each with its Type. */
  otherAbstracts?: { type: string; language?: string; text: string }[];
  authors: PubMedAuthor[];
  journalInfo: JournalInfo;
  publicationTypes: string[];
  keywords: string[];
  meshTerms: MeshTerm[];
  grantList: Grant[];
  languages: string[];
  doi?: string;
  pmcId?: string;
  /** Electronic publication date (ArticleDate DateType="Electronic"), standardised. */
  electronicDate?: PubMedDate;
  book?: BookInfo;
  /** Retraction notices the record links to; absent when it links none. */
  retractedIn?: RetractionNotice[];
  /** Corrections, expressions of concern, retractions and other notices the record links to. */
  updates?: WorkUpdate[];
}

/** PubMed's two retraction signals: the "Retracted Publication" type or a RetractionIn link. */
export function isRetracted(article: Pick<PubMedArticle, "publicationTypes" | "retractedIn">): boolean {
  return (article.publicationTypes ?? []).includes("Retracted Publication") || (article.retractedIn?.length ?? 0) > 0;
}

/** One ESummary (version 2.0) document, as searchPubMedArticles shows it. */
export interface PubMedSummary {
  pmid: string;
  title: string;
  authors: string[];
  source: string;
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`: as precise as PubMed knows it. */
  pubDate?: string;
  epubDate?: string;
  doi?: string;
  /** PMCID (`PMC1234567`) when the article is in PubMed Central. */
  pmcid?: string;
  /** Set when NCBI could not summarise this id (the other fields are then empty). */
  error?: string;
}
