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
  // Both run at once and are awaited together: when one throws (a cancelled call), the other's rejection
  // is still handled (left alone, it would be unhandled and end the process).
  const [record, { ids, article, url }] = await Promise.all([
    lookupRecord(ctx, named, attempts),
    pmcTier(ctx, target, attempts),
  ]);
  if (article?.hasBody && url) return { doc: withRecord(jatsDoc(article, url), record, attempts), record, ids };
  ids.pmid ??= article?.pmid ?? record?.pmid;
  ids.doi ??= article?.doi ?? record?.doi;
  const found = await europePmcText(ctx, record, ids.pmcid, attempts);
  if (!found) return { record, ids };
  const pmcid = found.article.pmcid ?? (record ? undefined : ids.pmcid);
  const landing = pmcid
    ? { id: pmcid, url: `https://europepmc.org/article/PMC/${pmcid}` }
    : { id: `${record!.source}:${record!.id}`, url: landingUrl(record!) };
  return { doc: withRecord(jatsDoc(found.article, found.url, landing), record, attempts), record, ids };
}

/** PubMed Central's path: the ids the converter knows, then PMC's XML when there is a PMCID. */
async function pmcTier(ctx: ToolContext, target: ArticleTarget, attempts: Attempts) {
  const ids: ArticleIds = "article" in target ? await resolveIds(ctx, target.article, attempts) : {};
  if (!ids.pmcid) return { ids };
  return { ids, ...await pmcText(ctx, ids.pmcid, attempts) };
}

/** Carries the record's retraction and the list of tiers tried onto a doc. */
export function withRecord(doc: ContentDoc, record: EuropePmcRecord | undefined, attempts: Attempts): ContentDoc {
  const tried = doc.tried ?? attempts.tried();
  return { ...doc, meta: { ...doc.meta, ...retraction(record) }, ...(tried ? { tried } : {}) };
}
