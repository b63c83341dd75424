/**
 * fetch_content for biomedical ids (PMID, PMCID, DOI): the PMC ID Converter finds the PMC copy, EFetch
 * db=pmc brings its JATS full text; an article PMC does not hold, or whose text the publisher withholds,
 * comes as its PubMed abstract with an AbstractOnly warning. A DOI outside PMC finds its PMID by ESearch.
 */
import { ToolError } from "../../../core/errors.ts";
import type { ToolContext } from "../../tool_def.ts";
import { convertIds } from "../../../sources/idconv/client.ts";
import type { ArticleId } from "../../../sources/idconv/ids.ts";
import { parseEFetchPubMed } from "../../../sources/ncbi/pubmed/parse_efetch.ts";
import { eFetch, eSearch } from "../../../sources/ncbi/pubmed/client.ts";
import type { PubMedArticle } from "../../../sources/ncbi/pubmed/types.ts";
import { pmcArticle } from "../../../sources/pmc/client.ts";
import type { PmcArticle } from "../../../sources/pmc/types.ts";
import type { Warning } from "../schemas.ts";
import type { ContentDoc } from "./types.ts";

interface Resolved {
  pmid?: string;
  pmcid?: string;
  doi?: string;
  /** Why there is no PMC copy to read, when there is none. */
  notInPmc?: string;
}

/** The cache key of an id: one entry per id as given (a PMID and its PMCID are fetched separately). */
export function biomedKey(id: ArticleId): string {
  return `pubmed:${id.type}:${id.id.toLowerCase()}`;
}

export async function biomedContent(ctx: ToolContext, id: ArticleId): Promise<ContentDoc> {
  const ids = await resolve(ctx, id);
  const why: string[] = ids.notInPmc ? [ids.notInPmc] : [];
  if (ids.pmcid) {
    const { article, url } = await pmcArticle(ctx, ids.pmcid);
    if (article?.hasBody) return jatsDoc(article, url);
    why.push(
      article
        ? `PMC holds ${ids.pmcid} but the publisher does not allow its full text to be downloaded`
        : `PMC sent no article for ${ids.pmcid}`,
    );
    ids.pmid ??= article?.pmid;
  }
  if (!ids.pmid) {
    throw new ToolError(
      "ENTITY_NOT_FOUND",
      `No PubMed or PMC record found for ${id.type.toUpperCase()} ${id.id} (${why.join("; ") || "no PMID"}).`,
      id.type === "doi"
        ? "Check the DOI; for works outside biomedicine use source=openalex with the OpenAlex id (search_papers)."
        : "Check the id (e.g. PMID 22416237 or PMCID PMC3299399).",
    );
  }
  return await abstractDoc(ctx, ids.pmid, why);
}

async function resolve(ctx: ToolContext, id: ArticleId): Promise<Resolved> {
  if (id.type === "pmcid") return { pmcid: id.id };
  const [record] = await convertIds(ctx, [id]);
  if (record.pmcid && !record.error) return { pmcid: record.pmcid, pmid: record.pmid, doi: record.doi };
  const notInPmc = `the PMC ID Converter answered: ${record.error ?? "no PMCID"}`;
  if (id.type === "pmid") return { pmid: id.id, notInPmc };
  // A DOI outside PMC: PubMed may still hold the article (and its abstract).
  const search = await eSearch(ctx, { term: `"${id.id}"[doi]`, retmax: 2, useHistory: false });
  const pmid = search.value.count === 1 ? search.value.ids[0] : undefined;
  return { pmid, doi: id.id, notInPmc };
}

function jatsDoc(a: PmcArticle, url: string): ContentDoc {
  const parts = [`# ${a.title ?? "(untitled)"}`];
  if (a.abstract) parts.push("## Abstract", a.abstract);
  for (const other of a.otherAbstracts) parts.push(`## ${other.heading} (abstract-type: ${other.type})`, other.text);
  for (const s of a.sections) parts.push(...(s.heading ? [`## ${s.heading}`] : []), ...(s.text ? [s.text] : []));
  if (a.backMatter) parts.push(a.backMatter);
  if (a.references.length) parts.push("## References", a.references.map((r, i) => `${i + 1}. ${r}`).join("\n"));
  const warnings: Warning[] = a.openAccess ? [] : [{
    code: "NotOpenAccessSubset",
    message: `${a.pmcid} is not in PMC's open-access subset: read it, but check its licence before reusing the text.`,
  }];
  return {
    meta: {
      id: a.pmcid ?? `PMID:${a.pmid}`,
      title: a.title,
      authors: a.authors,
      date: a.date,
      ...(a.abstract ? { abstract: a.abstract } : {}),
      ...(a.doi ? { doi: a.doi } : {}),
      url: `https://pmc.ncbi.nlm.nih.gov/articles/${a.pmcid}/`,
      ...(a.journal ? { venue: a.journal } : {}),
      ...(a.articleType ? { type: a.articleType } : {}),
    },
    text: parts.join("\n\n"),
    format: "jats",
    contentUrl: url,
    warnings,
  };
}

async function abstractDoc(ctx: ToolContext, pmid: string, why: string[]): Promise<ContentDoc> {
  const fetched = await eFetch(ctx, [pmid], "xml");
  const record = parseEFetchPubMed(fetched.value, fetched.url).find((r) => r.pmid === pmid);
  if (!record) {
    throw new ToolError("ENTITY_NOT_FOUND", `PubMed has no record PMID ${pmid}.`, "Check the PMID.");
  }
  const abstract = record.abstractText?.trim();
  const text = [`# ${record.title}`, "## Abstract", abstract || "(PubMed has no abstract for this article.)"]
    .join("\n\n");
  return {
    meta: {
      id: `PMID:${pmid}`,
      title: record.title || null,
      authors: record.authors.map(authorName).filter(Boolean),
      date: pubmedDate(record),
      ...(abstract ? { abstract } : {}),
      ...(record.doi ? { doi: record.doi } : {}),
      url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
      ...(record.journalInfo.title ? { venue: record.journalInfo.title } : {}),
      ...(record.publicationTypes[0] ? { type: record.publicationTypes[0] } : {}),
    },
    text,
    format: "abstract",
    contentUrl: fetched.url,
    warnings: [{
      code: "AbstractOnly",
      message: `No open full text (${why.join("; ")}): this is the PubMed abstract. The publisher's page may ` +
        (record.doi ? `have the full text: https://doi.org/${record.doi}.` : "have the full text."),
    }],
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
