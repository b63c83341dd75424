/**
 * Records from each source as verification {@link Candidate}s: PubMed articles, Crossref works and
 * OpenAlex works, each with the retraction signal its source carries and the source marked as checked.
 */
import { pubmedUrl } from "../../../sources/ncbi/pubmed/url.ts";
import type { CrossrefWork } from "../../../sources/crossref/types.ts";
import { workUpdates } from "../../../sources/crossref/parse_work.ts";
import { isRetracted, type PubMedArticle } from "../../../sources/ncbi/pubmed/types.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";
import type { Candidate } from "./match.ts";
import { crossrefNotice, pubmedNotice } from "./resolve_records.ts";
import { splitDisplayName } from "../../../sources/citations/csl.ts";

/** "RETRACTED: Title" (Crossref, Elsevier) compares as "Title". */
function bareTitle(title: string | undefined): string | undefined {
  return title?.replace(/^\s*(?:retracted|withdrawn)\s*(?:article)?\s*:\s*/i, "");
}

export function fromPubMed(a: PubMedArticle, byId: boolean): Candidate {
  const first = a.authors[0];
  return {
    title: a.title,
    firstAuthor: first?.lastName ?? first?.collectiveName,
    year: a.journalInfo.publicationDate.year ?? a.journalInfo.publicationDate.medlineDate?.slice(0, 4),
    journals: [a.journalInfo.title, a.journalInfo.isoAbbreviation].filter((j): j is string => !!j),
    volume: a.journalInfo.volume,
    firstPage: a.journalInfo.pages?.split(/[-,]/)[0],
    pmid: a.pmid,
    doi: a.doi,
    pmcid: a.pmcId,
    oaUrl: a.pmcId ? `https://pmc.ncbi.nlm.nih.gov/articles/${a.pmcId}/` : undefined,
    notices: isRetracted(a) ? [pubmedNotice(a)] : [],
    updates: a.updates ?? [],
    checked: new Set(["PubMed"]),
    byId,
  };
}

export function fromCrossrefWork(w: CrossrefWork, byId: boolean): Candidate {
  const notice = crossrefNotice(w);
  const first = w.authors[0];
  return {
    title: bareTitle(w.title),
    firstAuthor: first?.family ?? first?.name,
    year: w.issued?.slice(0, 4),
    journals: [w.containerTitle, w.shortContainerTitle].filter((j): j is string => !!j),
    volume: w.volume,
    firstPage: w.page?.split(/[-,]/)[0],
    doi: w.doi,
    notices: notice ? [notice] : [],
    updates: workUpdates(w),
    checked: new Set(["Crossref"]),
    byId,
  };
}

export function fromOpenAlexWork(w: OpenAlexWork, byId: boolean): Candidate {
  const best = w.oaLocations[0];
  return {
    title: bareTitle(w.title),
    firstAuthor: w.authors[0] ? splitDisplayName(w.authors[0]).family : undefined,
    year: w.publicationDate?.slice(0, 4),
    journals: w.venue ? [w.venue] : [],
    volume: w.biblio?.volume,
    firstPage: w.biblio?.firstPage,
    pmid: w.pmid,
    doi: w.doi,
    openalex: w.id || undefined,
    arxiv: w.arxivId,
    pmcid: w.pmcid,
    oaUrl: w.pdfUrl ?? best?.landingPageUrl ?? (w.pmid && w.isOa ? pubmedUrl(w.pmid) : undefined),
    notices: w.isRetracted ? ["OpenAlex: is_retracted"] : [],
    updates: [],
    // Only an answer that carried is_retracted counts as checked.
    checked: new Set(w.isRetracted === undefined ? [] : ["OpenAlex"]),
    byId,
  };
}
