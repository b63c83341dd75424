/**
 * The NCBI pieces of fetch_content for biomedical ids: the PMC ID Converter (PMID/DOI → PMCID), the JATS
 * full text from PubMed Central, and the PubMed abstract record (the best fallback when no full text is
 * open). A DOI outside PMC finds its PMID by ESearch.
 */
import type { ToolContext } from "../../tool_def.ts";
import { convertIds } from "../../../sources/idconv/client.ts";
import type { ArticleId } from "../../../sources/idconv/ids.ts";
import { eFetchArticles, eSearch } from "../../../sources/ncbi/pubmed/client.ts";
import type { PubMedArticle } from "../../../sources/ncbi/pubmed/types.ts";
import { pmcArticle } from "../../../sources/pmc/client.ts";
import type { PmcArticle } from "../../../sources/pmc/types.ts";
import type { Warning } from "../schemas.ts";
import type { Attempts } from "./attempts.ts";
import type { ArticleIds } from "./europepmc_content.ts";
import type { ContentDoc, ContentMeta } from "./types.ts";

/** The cache key of an id: one entry per id as given (a PMID and its PMCID are fetched separately). */
export function biomedKey(id: ArticleId): string {
  return `pubmed:${id.type}:${id.id.toLowerCase()}`;
}

/** The PMCID (and PMID, DOI) of an id through the converter; a DOI outside PMC looks for its PMID. */
export async function resolveIds(ctx: ToolContext, id: ArticleId, attempts: Attempts): Promise<ArticleIds> {
  if (id.type === "pmcid") return { pmcid: id.id };
  const given: ArticleIds = { [id.type]: id.id };
  let record;
  try {
    [record] = await convertIds(ctx, [id]);
  } catch (error) {
    attempts.fail("PubMed Central", `PMC ID Converter, ${id.type} ${id.id}`, error);
    return given;
  }
  if (record.pmcid && !record.error) return { pmcid: record.pmcid, pmid: record.pmid, doi: record.doi ?? given.doi };
  attempts.reject(
    "PubMed Central",
    `PMC ID Converter, ${id.type} ${id.id}`,
    `the PMC ID Converter answered: ${record.error ?? "no PMCID"}`,
  );
  if (id.type === "pmid") return { ...given, ...(record.doi ? { doi: record.doi } : {}) };
  // A DOI outside PMC: PubMed may still hold the article (and its abstract).
  try {
    const search = await eSearch(ctx, { term: `"${id.id}"[doi]`, retmax: 2, useHistory: false });
    if (search.value.count === 1) return { ...given, pmid: search.value.ids[0] };
  } catch (error) {
    attempts.fail("PubMed", `ESearch "${id.id}"[doi]`, error);
  }
  return given;
}

/** PMC's JATS for a PMCID, or undefined with the reason recorded. */
export async function pmcText(
  ctx: ToolContext,
  pmcid: string,
  attempts: Attempts,
): Promise<{ article?: PmcArticle; url?: string }> {
  try {
    const { article: sent, url } = await pmcArticle(ctx, pmcid);
    // A publisher's JATS (eLife) names no PMCID: it is the one PMC was asked for.
    const article = sent && !sent.pmcid ? { ...sent, pmcid: `PMC${pmcid.replace(/^PMC/i, "")}` } : sent;
    if (article?.hasBody) return { article, url };
    attempts.reject(
      "PubMed Central",
      url,
      article
        ? `PMC holds ${pmcid} but the publisher does not allow its full text to be downloaded`
        : `PMC sent no article for ${pmcid}`,
    );
    return { article };
  } catch (error) {
    attempts.fail("PubMed Central", `EFetch db=pmc ${pmcid}`, error);
    return {};
  }
}

/** A JATS article as a doc; `landing` replaces the PMC page for copies read elsewhere (Europe PMC). */
export function jatsDoc(a: PmcArticle, contentUrl: string, landing?: { id: string; url: string }): ContentDoc {
  const parts = [`# ${a.title ?? "(untitled)"}`];
  if (a.abstract) parts.push("## Abstract", a.abstract);
  for (const other of a.otherAbstracts) parts.push(`## ${other.heading} (abstract-type: ${other.type})`, other.text);
  for (const s of a.sections) parts.push(...(s.heading ? [`## ${s.heading}`] : []), ...(s.text ? [s.text] : []));
  if (a.backMatter) parts.push(a.backMatter);
  if (a.references.length) parts.push("## References", a.references.map((r, i) => `${i + 1}. ${r}`).join("\n"));
  // Each sub-article (decision letter, author response) is a section of its own, so the outline lists it.
  for (const s of a.subArticles) parts.push(`## ${s.heading}`, ...(s.text ? [s.text] : []));
  const warnings: Warning[] = a.openAccess ? [] : [{
    code: "NotOpenAccessSubset",
    message: `${a.pmcid ?? landing?.id} is not in PMC's open-access subset: read it, but check its licence before ` +
      "reusing the text.",
  }];
  return {
    meta: {
      id: landing?.id ?? a.pmcid ?? `PMID:${a.pmid}`,
      title: a.title,
      authors: a.authors,
      date: a.date,
      ...(a.abstract ? { abstract: a.abstract } : {}),
      ...(a.doi ? { doi: a.doi } : {}),
      url: landing?.url ?? `https://pmc.ncbi.nlm.nih.gov/articles/${a.pmcid}/`,
      ...(a.journal ? { venue: a.journal } : {}),
      ...(a.articleType ? { type: a.articleType } : {}),
    },
    text: parts.join("\n\n"),
    format: "jats",
    contentUrl,
    warnings,
  };
}

/** The PubMed record of a PMID as doc metadata, or undefined when PubMed has none (or failed: recorded). */
export async function pubmedRecord(
  ctx: ToolContext,
  pmid: string,
  attempts: Attempts,
): Promise<{ meta: ContentMeta; url: string } | undefined> {
  try {
    const fetched = await eFetchArticles(ctx, [pmid]);
    const record = fetched.value.find((r) => r.pmid === pmid);
    if (!record) {
      attempts.reject("PubMed", fetched.url, `PubMed has no record PMID ${pmid}`);
      return undefined;
    }
    return { meta: pubmedMeta(record), url: fetched.url };
  } catch (error) {
    attempts.fail("PubMed", `EFetch PMID ${pmid}`, error);
    return undefined;
  }
}

function pubmedMeta(record: PubMedArticle): ContentMeta {
  const abstract = record.abstractText?.trim();
  const retracted = record.publicationTypes.some((t) => /^retracted publication$/i.test(t));
  return {
    id: `PMID:${record.pmid}`,
    title: record.title || null,
    authors: record.authors.map(authorName).filter(Boolean),
    date: pubmedDate(record),
    ...(abstract ? { abstract } : {}),
    ...(record.doi ? { doi: record.doi } : {}),
    url: `https://pubmed.ncbi.nlm.nih.gov/${record.pmid}/`,
    ...(record.journalInfo.title ? { venue: record.journalInfo.title } : {}),
    ...(record.publicationTypes[0] ? { type: record.publicationTypes[0] } : {}),
    ...(retracted ? { retracted: true } : {}),
  };
}

function authorName(a: PubMedArticle["authors"][number]): string {
  return a.collectiveName ?? [a.firstName ?? a.initials, a.lastName].filter(Boolean).join(" ");
}

function pubmedDate(r: PubMedArticle): string | null {
  // A book chapter is dated by its own revision or contribution, not by its series' start.
  const chapter = r.book?.revisedDate ?? r.book?.contributionDate;
  const d = r.electronicDate?.year ? r.electronicDate : chapter?.year ? chapter : r.journalInfo.publicationDate;
  if (!d.year) return null;
  return [d.year, d.month, d.month ? d.day : undefined].filter(Boolean).join("-");
}
