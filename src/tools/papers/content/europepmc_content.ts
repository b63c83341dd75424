/**
 * The Europe PMC tier of fetch_content: the record for an id (metadata, abstract, retraction, which full
 * texts Europe PMC holds) and its open-access JATS full text, read by the PMC parser.
 */
import type { ToolContext } from "../../tool_def.ts";
import { europePmcFullText, findRecord } from "../../../sources/europepmc/client.ts";
import type { EuropePmcRecord } from "../../../sources/europepmc/types.ts";
import type { PmcArticle } from "../../../sources/pmc/types.ts";
import type { Attempts } from "./attempts.ts";
import type { ContentMeta } from "./types.ts";

/** What is known of an article: the ids a caller gave or a converter found, or a Europe PMC `SRC:ID`. */
export interface ArticleIds {
  pmid?: string;
  pmcid?: string;
  doi?: string;
  /** Europe PMC record source and id (PPR + PPR1036674), for records without a PMID. */
  epmc?: { source: string; id: string };
}

/** The Europe PMC query that names exactly this article. */
export function recordQuery(ids: ArticleIds): string | undefined {
  if (ids.epmc) return `EXT_ID:${ids.epmc.id} AND SRC:${ids.epmc.source}`;
  if (ids.pmcid) return `PMCID:${ids.pmcid}`;
  if (ids.pmid) return `EXT_ID:${ids.pmid} AND SRC:MED`;
  if (ids.doi) return `DOI:"${ids.doi.replaceAll('"', "")}"`;
  return undefined;
}

function sameArticle(r: EuropePmcRecord, ids: ArticleIds): boolean {
  if (ids.epmc) return r.source === ids.epmc.source && r.id.toUpperCase() === ids.epmc.id.toUpperCase();
  if (ids.pmcid) return r.pmcid?.toUpperCase() === ids.pmcid.toUpperCase();
  if (ids.pmid) return r.pmid === ids.pmid;
  return r.doi?.toLowerCase() === ids.doi?.toLowerCase();
}

/** The record, or undefined (the miss or the failure is recorded in `attempts`). */
export async function lookupRecord(
  ctx: ToolContext,
  ids: ArticleIds,
  attempts: Attempts,
): Promise<EuropePmcRecord | undefined> {
  const query = recordQuery(ids);
  if (!query) return undefined;
  try {
    const { record, url } = await findRecord(ctx, query);
    if (record && sameArticle(record, ids)) return record;
    attempts.reject("Europe PMC", url, "no record for this id");
  } catch (error) {
    attempts.fail(
      "Europe PMC",
      ctx.upstream.describe({ upstream: "europepmc", path: "/search", query: { query } }),
      error,
    );
  }
  return undefined;
}

/** The open-access full text Europe PMC holds for the record (or, without one, for the PMCID). */
export async function europePmcText(
  ctx: ToolContext,
  record: EuropePmcRecord | undefined,
  pmcid: string | undefined,
  attempts: Attempts,
): Promise<{ article: PmcArticle; url: string } | undefined> {
  const id = record ? record.fullTextIds[0] ?? (record.isOpenAccess ? record.pmcid : undefined) : pmcid;
  if (!id) {
    if (record) {
      attempts.reject("Europe PMC full text", landingUrl(record), "Europe PMC holds no open full text for it");
    }
    return undefined;
  }
  try {
    const { article, url } = await europePmcFullText(ctx, id);
    if (article?.hasBody) return { article, url };
    attempts.reject("Europe PMC full text", url, article ? "the XML has no body" : "not found (HTTP 404)");
  } catch (error) {
    attempts.fail("Europe PMC full text", `https://europepmc.org/article/PMC/${id}`, error);
  }
  return undefined;
}

export function landingUrl(r: EuropePmcRecord): string {
  return `https://europepmc.org/article/${r.source}/${r.id}`;
}

export function recordMeta(r: EuropePmcRecord): ContentMeta {
  return {
    id: `${r.source}:${r.id}`,
    title: r.title,
    authors: r.authors,
    date: r.date,
    ...(r.abstract ? { abstract: r.abstract } : {}),
    ...(r.doi ? { doi: r.doi } : {}),
    url: landingUrl(r),
    ...(r.venue ? { venue: r.venue } : {}),
    ...(r.preprint ? { type: "preprint" } : r.pubTypes[0] ? { type: r.pubTypes[0] } : {}),
    ...(r.citedByCount !== undefined ? { cited_by_count: r.citedByCount } : {}),
    ...retraction(r),
  };
}

/** The retraction fields of a record, to spread into any doc's metadata. */
export function retraction(r: EuropePmcRecord | undefined): Pick<ContentMeta, "retracted" | "retraction_notice"> {
  if (!r?.retracted) return {};
  return { retracted: true, ...(r.retracted.notice ? { retraction_notice: r.retracted.notice } : {}) };
}
