/**
 * What fetchArticleDetails returns for one record at each detail level. abstract_plus is the full record
 * (MeSH and grants on request), citation_data the fields a reference needs (MeSH on request too).
 */
import type { PubMedArticle } from "../../sources/ncbi/pubmed/types.ts";
import type { z } from "../../core/zod.ts";
import type { articleSchema } from "./schemas.ts";

type ArticleView = z.input<typeof articleSchema>;

export interface AbstractPlusOptions {
  includeMeshTerms: boolean;
  includeGrantInfo: boolean;
}

export function abstractPlusView(article: PubMedArticle, options: AbstractPlusOptions): ArticleView {
  const { meshTerms, grantList, ...rest } = article;
  return {
    ...rest,
    ...(options.includeMeshTerms ? { meshTerms } : {}),
    ...(options.includeGrantInfo ? { grantList } : {}),
  };
}

/** The fields a reference needs; MeSH headings too unless `includeMeshTerms` is false (as for abstract_plus). */
export function citationView(
  article: PubMedArticle,
  options: Pick<AbstractPlusOptions, "includeMeshTerms">,
): ArticleView {
  return {
    pmid: article.pmid,
    recordType: article.recordType,
    title: article.title,
    authors: article.authors.map(({ affiliation: _a, orcid: _o, ...name }) => name),
    journalInfo: article.journalInfo,
    publicationTypes: article.publicationTypes,
    ...(article.doi ? { doi: article.doi } : {}),
    ...(article.pmcId ? { pmcId: article.pmcId } : {}),
    ...(article.book ? { book: article.book } : {}),
    ...(article.retractedIn ? { retractedIn: article.retractedIn } : {}),
    ...(article.updates ? { updates: article.updates } : {}),
    ...(options.includeMeshTerms ? { meshTerms: article.meshTerms } : {}),
  };
}
