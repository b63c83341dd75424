/**
 * The repository tiers of fetch_content: PubMed Central's XML, then Europe PMC's open-access XML, for an
 * article id or a Europe PMC record. The Europe PMC record (retraction, abstract, which full texts it
 * holds) is looked up beside PMC's path and returned whatever the outcome, for the later tiers.
 */
import type { ArticleId } from "../../../sources/idconv/ids.ts";
import type { EuropePmcRecord } from "../../../sources/europepmc/types.ts";
import type { ToolContext } from "../../tool_def.ts";
import type { Attempts } from "./attempts.ts";
import { type ArticleIds, europePmcText, landingUrl, lookupRecord, retraction } from "./europepmc_content.ts";
import { jatsDoc, pmcText, resolveIds } from "./pmc_content.ts";
import type { ContentDoc } from "./types.ts";

/** What the caller named: an article id, or a Europe PMC record (`PPR:PPR1036674`). */
export type ArticleTarget = { article: ArticleId } | { epmc: { source: string; id: string } };

export interface RepositoryResult {
  doc?: ContentDoc;
  record?: EuropePmcRecord;
  /** Every id learnt on the way (the converter, the JATS, the record). */
  ids: ArticleIds;
}

export async function repositoryText(
  ctx: ToolContext,
  target: ArticleTarget,
  attempts: Attempts,
): Promise<RepositoryResult> {
  const named: ArticleIds = "epmc" in target ? { epmc: target.epmc } : { [target.article.type]: target.article.id };
  const lookup = lookupRecord(ctx, named, attempts);
  const ids: ArticleIds = "article" in target ? await resolveIds(ctx, target.article, attempts) : {};
  if (ids.pmcid) {
    const { article, url } = await pmcText(ctx, ids.pmcid, attempts);
    if (article?.hasBody && url) {
      const record = await lookup;
      return { doc: withRecord(jatsDoc(article, url), record, attempts), record, ids };
    }
    ids.pmid ??= article?.pmid;
    ids.doi ??= article?.doi;
  }
  const record = await lookup;
  ids.pmid ??= record?.pmid;
  ids.doi ??= record?.doi;
  const found = await europePmcText(ctx, record, ids.pmcid, attempts);
  if (!found) return { record, ids };
  const pmcid = found.article.pmcid ?? (record ? undefined : ids.pmcid);
  const landing = pmcid
    ? { id: pmcid, url: `https://europepmc.org/article/PMC/${pmcid}` }
    : { id: `${record!.source}:${record!.id}`, url: landingUrl(record!) };
  return { doc: withRecord(jatsDoc(found.article, found.url, landing), record, attempts), record, ids };
}

/** Carries the record's retraction and the list of tiers tried onto a doc. */
export function withRecord(doc: ContentDoc, record: EuropePmcRecord | undefined, attempts: Attempts): ContentDoc {
  const tried = doc.tried ?? attempts.tried();
  return { ...doc, meta: { ...doc.meta, ...retraction(record) }, ...(tried ? { tried } : {}) };
}
