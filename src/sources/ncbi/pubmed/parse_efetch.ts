/**
 * EFetch db=pubmed retmode=xml → {@link PubMedArticle} records. Reads `PubmedArticle` (MedlineCitation +
 * PubmedData), `PubmedBookArticle` (BookDocument: whole books and chapters) and the bare
 * `MedlineCitationSet` of the MEDLINE baseline files. An `<ERROR>` body throws.
 */
import { ToolError } from "../../../core/errors.ts";
import { parseJob } from "../../parse_job.ts";
import {
  articleIds,
  eLocationDoi,
  parseAbstract,
  parseAuthors,
  parseDate,
  parseGrants,
  parseKeywords,
  parseMesh,
  textList,
} from "./parts.ts";
import type { BookInfo, JournalInfo, PubMedArticle, PubMedAuthor, PubMedDate, RetractionNotice } from "./types.ts";
import { PUBMED_UPDATE_TYPES, refSourceDate, type WorkUpdate } from "../../works/updates.ts";
import { attr, child, children, get, mixedText, parsePubMedXml, plainText } from "./xml.ts";

/** {@link parseEFetchPubMed} as a parse job (see parse_off_thread.ts). */
export const pubmedArticlesJob = parseJob(
  "pubmed-articles",
  "ncbi-eutils",
  (body: string, url: string) => parseEFetchPubMed(body, url),
);

export function parseEFetchPubMed(body: string, url: string): PubMedArticle[] {
  const doc = parsePubMedXml(body, url);
  const error = plainText(get(get(doc, "eFetchResult"), "ERROR")) ?? plainText(get(doc, "ERROR"));
  if (error) {
    throw new ToolError(
      "UPSTREAM_ERROR",
      `NCBI EFetch refused the request: ${error}`,
      "Check the PMIDs (digits only) and retry; find PMIDs with searchPubMedArticles.",
    );
  }
  const set = get(doc, "PubmedArticleSet");
  if (set !== undefined) {
    return [
      ...children(set, "PubmedArticle").map((a) => parseCitation(firstOf(a, "MedlineCitation"), get(a, "PubmedData"))),
      ...children(set, "PubmedBookArticle").map((b) => parseBook(get(b, "BookDocument"))),
    ].filter((a): a is PubMedArticle => a !== undefined);
  }
  const baseline = get(doc, "MedlineCitationSet");
  if (baseline !== undefined) {
    return children(baseline, "MedlineCitation").map((c) => parseCitation(c, undefined))
      .filter((a): a is PubMedArticle => a !== undefined);
  }
  throw new ToolError(
    "UPSTREAM_ERROR",
    `NCBI EFetch answered without a PubmedArticleSet (${url})`,
    "Retry shortly; NCBI may be degraded.",
  );
}

function firstOf(node: unknown, name: string): unknown {
  const value = get(node, name);
  return Array.isArray(value) ? value[0] : value;
}

function parseCitation(citation: unknown, pubmedData: unknown): PubMedArticle | undefined {
  const pmid = plainText(get(citation, "PMID"));
  if (!pmid) return undefined;
  const article = child(citation, "Article");
  const journal = child(article, "Journal");
  const issue = child(journal, "JournalIssue");
  const ids = articleIds(child(pubmedData, "ArticleIdList"));
  const authors = parseAuthors(firstOf(article, "AuthorList"));
  applyArticleAffiliation(authors, mixedText(get(article, "Affiliation")));
  const journalInfo: JournalInfo = compact({
    title: plainText(get(journal, "Title")),
    isoAbbreviation: plainText(get(journal, "ISOAbbreviation")),
    issn: plainText(get(journal, "ISSN")),
    volume: plainText(get(issue, "Volume")),
    issue: plainText(get(issue, "Issue")),
    pages: pagination(child(article, "Pagination")),
    publicationDate: parseDate(child(issue, "PubDate")),
  });
  const electronic = children(article, "ArticleDate").find((d) =>
    (attr(d, "DateType") ?? "Electronic") === "Electronic"
  );
  return compact({
    pmid,
    recordType: "journal_article" as const,
    title: mixedText(get(article, "ArticleTitle")) ?? mixedText(firstOf(article, "VernacularTitle")) ?? "",
    vernacularTitle: mixedText(firstOf(article, "VernacularTitle")),
    abstractText: parseAbstract(child(article, "Abstract")),
    otherAbstracts: otherAbstracts(citation),
    authors,
    journalInfo,
    publicationTypes: textList(child(article, "PublicationTypeList"), "PublicationType"),
    keywords: parseKeywords(citation),
    meshTerms: parseMesh(child(citation, "MeshHeadingList")),
    grantList: parseGrants(child(article, "GrantList")),
    languages: textList(article, "Language"),
    doi: ids.get("doi") ?? eLocationDoi(article),
    pmcId: ids.get("pmc"),
    electronicDate: electronic === undefined ? undefined : parseDate(electronic),
    retractedIn: retractionNotices(child(citation, "CommentsCorrectionsList")),
    updates: updateNotices(child(citation, "CommentsCorrectionsList")),
  });
}

/** `OtherAbstract` (a plain-language summary, a publisher's or a translated abstract), labelled by its Type. */
function otherAbstracts(citation: unknown): PubMedArticle["otherAbstracts"] {
  const out = children(citation, "OtherAbstract").map((a) => {
    const text = parseAbstract(a);
    const language = attr(a, "Language");
    return text ? { type: attr(a, "Type") ?? "undefined", ...(language ? { language } : {}), text } : undefined;
  }).filter((a) => a !== undefined);
  return out.length ? out : undefined;
}

/** `<CommentsCorrections RefType="RetractionIn">` entries; undefined when there are none. */
function retractionNotices(list: unknown): RetractionNotice[] | undefined {
  const notices = children(list, "CommentsCorrections")
    .filter((c) => attr(c, "RefType") === "RetractionIn")
    .map((c) => compact({ refSource: mixedText(get(c, "RefSource")), pmid: plainText(get(c, "PMID")) }));
  return notices.length ? notices : undefined;
}

/**
 * Every notice about the record (`ErratumIn`, `ExpressionOfConcernIn`, `RetractionIn`, `UpdateIn`, …) as
 * {@link WorkUpdate}s; undefined when there are none. Comments (`CommentIn`) are not updates.
 */
function updateNotices(list: unknown): WorkUpdate[] | undefined {
  const out = children(list, "CommentsCorrections").flatMap((c) => {
    const type = PUBMED_UPDATE_TYPES[attr(c, "RefType") ?? ""];
    if (!type) return [];
    const pmid = plainText(get(c, "PMID"));
    const date = refSourceDate(mixedText(get(c, "RefSource")));
    return [compact({ type, id: pmid ? `PMID:${pmid}` : undefined, date, source: "PubMed" as const })];
  });
  return out.length ? out : undefined;
}

/** Records before 2014 carry one affiliation for the whole article: PubMed shows it on the first author. */
function applyArticleAffiliation(authors: PubMedAuthor[], affiliation: string | undefined): void {
  if (!affiliation || authors.length === 0 || authors.some((a) => a.affiliation)) return;
  authors[0].affiliation = affiliation;
}

function pagination(node: unknown): string | undefined {
  const medline = plainText(get(node, "MedlinePgn"));
  if (medline) return medline;
  const start = plainText(get(node, "StartPage"));
  const end = plainText(get(node, "EndPage"));
  return start && end ? `${start}-${end}` : start;
}

function parseBook(doc: unknown): PubMedArticle | undefined {
  const pmid = plainText(get(doc, "PMID"));
  if (!pmid) return undefined;
  const book = child(doc, "Book");
  const ids = articleIds(child(doc, "ArticleIdList"));
  const bookTitle = mixedText(get(book, "BookTitle"));
  const chapterTitle = mixedText(get(doc, "ArticleTitle"));
  const lists = [...children(doc, "AuthorList"), ...children(book, "AuthorList")];
  const byType = (type: string) => lists.filter((l) => (attr(l, "Type") ?? "authors") === type).flatMap(parseAuthors);
  const info: BookInfo = compact({
    bookTitle,
    publisher: plainText(get(child(book, "Publisher"), "PublisherName")),
    publisherLocation: plainText(get(child(book, "Publisher"), "PublisherLocation")),
    isbn: textList(book, "Isbn"),
    editors: byType("editors"),
    bookAccession: ids.get("bookaccession"),
    edition: plainText(get(book, "Edition")),
    contributionDate: knownDate(child(doc, "ContributionDate")),
    revisedDate: knownDate(child(doc, "DateRevised")),
    beginningDate: knownDate(child(book, "BeginningDate")),
    endingDate: knownDate(child(book, "EndingDate")),
  });
  return compact({
    pmid,
    recordType: chapterTitle ? "book_chapter" as const : "book" as const,
    title: chapterTitle ?? bookTitle ?? "",
    vernacularTitle: mixedText(firstOf(doc, "VernacularTitle")),
    abstractText: parseAbstract(child(doc, "Abstract")),
    authors: byType("authors"),
    journalInfo: compact({
      title: bookTitle,
      volume: plainText(get(book, "Volume")),
      pages: pagination(child(doc, "Pagination")),
      publicationDate: parseDate(child(book, "PubDate")),
    }),
    publicationTypes: textList(doc, "PublicationType"),
    keywords: parseKeywords(doc),
    meshTerms: [],
    grantList: parseGrants(child(doc, "GrantList")),
    languages: textList(doc, "Language"),
    doi: ids.get("doi") ?? eLocationDoi(book) ?? eLocationDoi(doc),
    pmcId: ids.get("pmc"),
    book: info,
  });
}

/** A date element that says something, else undefined. */
function knownDate(node: unknown): PubMedDate | undefined {
  if (node === undefined) return undefined;
  const date = parseDate(node);
  return Object.keys(date).length ? date : undefined;
}

/** Drops undefined fields so records carry only what PubMed gave. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
