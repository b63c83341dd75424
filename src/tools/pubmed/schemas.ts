/** Output schemas shared by the pubmed tools. They mirror src/sources/ncbi/pubmed_types.ts. */
import { z } from "../../core/zod.ts";

export const authorSchema = z.object({
  lastName: z.string().optional(),
  firstName: z.string().optional(),
  initials: z.string().optional(),
  affiliation: z.string().optional().describe("All affiliations, joined with '; '"),
  collectiveName: z.string().optional().describe("Group author; the name fields are then absent"),
  orcid: z.string().optional().describe("Bare ORCID iD"),
});

export const dateSchema = z.object({
  year: z.string().optional(),
  month: z.string().optional().describe("Two digits"),
  day: z.string().optional().describe("Two digits"),
  season: z.string().optional().describe("As given, e.g. 'Spring' or 'Jan-Mar'"),
  medlineDate: z.string().optional().describe("Free-text date as given, e.g. '2015 Oct-Dec'"),
});

export const journalInfoSchema = z.object({
  title: z.string().optional(),
  isoAbbreviation: z.string().optional(),
  issn: z.string().optional(),
  volume: z.string().optional(),
  issue: z.string().optional(),
  pages: z.string().optional(),
  publicationDate: dateSchema,
});

export const meshTermSchema = z.object({
  descriptorName: z.string(),
  qualifierName: z.string().optional(),
  isMajorTopic: z.boolean(),
  ui: z.string().optional(),
});

export const grantSchema = z.object({
  grantId: z.string().optional(),
  agency: z.string().optional(),
  country: z.string().optional(),
  acronym: z.string().optional(),
});

export const bookSchema = z.object({
  bookTitle: z.string().optional(),
  publisher: z.string().optional(),
  publisherLocation: z.string().optional(),
  isbn: z.array(z.string()),
  editors: z.array(authorSchema),
  bookAccession: z.string().optional(),
  edition: z.string().optional(),
  contributionDate: dateSchema.optional().describe("When the chapter was contributed"),
  revisedDate: dateSchema.optional().describe("When the chapter was last revised"),
  beginningDate: dateSchema.optional().describe("Start of a series or living book"),
  endingDate: dateSchema.optional(),
});

/**
 * One fetched article. Which fields appear depends on detailLevel: abstract_plus gives the bibliographic
 * fields, citation_data a subset, full_xml `fullXml`, medline_text `medlineText`.
 */
/** A notice about a record (see src/sources/works/updates.ts). */
export const updateSchema = z.object({
  type: z.string(),
  id: z.string().optional(),
  date: z.string().optional(),
  source: z.enum(["Crossref", "PubMed"]),
});

export const articleSchema = z.object({
  pmid: z.string(),
  recordType: z.enum(["journal_article", "book", "book_chapter"]).optional(),
  title: z.string().optional(),
  vernacularTitle: z.string().optional(),
  abstractText: z.string().optional(),
  otherAbstracts: z.array(z.object({ type: z.string(), language: z.string().optional(), text: z.string() }))
    .optional().describe("Other abstracts (plain-language, publisher, translated), by type"),
  authors: z.array(authorSchema).optional(),
  journalInfo: journalInfoSchema.optional(),
  publicationTypes: z.array(z.string()).optional(),
  keywords: z.array(z.string()).optional(),
  meshTerms: z.array(meshTermSchema).optional(),
  grantList: z.array(grantSchema).optional(),
  languages: z.array(z.string()).optional(),
  doi: z.string().optional(),
  pmcId: z.string().optional(),
  electronicDate: dateSchema.optional(),
  book: bookSchema.optional(),
  retractedIn: z.array(z.object({ refSource: z.string().optional(), pmid: z.string().optional() })).optional()
    .describe("Retraction notices (RetractionIn)"),
  updates: z.array(updateSchema).optional().describe(
    "Notices about the record: correction, expression_of_concern, retraction, … (PubMed CommentsCorrections)",
  ),
  fullXml: z.string().optional().describe("The record's raw PubMed XML (full_xml)"),
  medlineText: z.string().optional().describe("The record in MEDLINE tagged format (medline_text)"),
});
