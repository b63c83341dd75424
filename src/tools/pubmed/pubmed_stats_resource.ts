/**
 * `pubmed-connect://stats/pubmed`: EInfo db=pubmed parsed (record count, last update, search fields,
 * link names), as base64 JSON in `blob` like the seed. PubMed's statistics change once a day at most, so
 * the result is kept for 12 hours per server, on top of whatever the upstream cache keeps.
 */
import { sharedKey } from "../../core/shared_key.ts";
import type { ResourceDef, ToolContext } from "../tool_def.ts";
import { eInfo, EINFO_TTL_MS } from "../../sources/ncbi/pubmed/client.ts";
import { base64Utf8 } from "./base64.ts";

const URI = "pubmed-connect://stats/pubmed";
/** NCBI's reference for EInfo, where the fields below are defined. */
const EINFO_DOCS_URL = "https://www.ncbi.nlm.nih.gov/books/NBK25499/#chapter4.EInfo";

interface CachedStats {
  json?: string;
  at: number;
}

const STATS = sharedKey<CachedStats>("pubmed:stats-resource");

async function pubmedStats(ctx: ToolContext): Promise<Record<string, unknown>> {
  const { value, url } = await eInfo(ctx);
  return {
    dbName: value.dbName,
    menuName: value.menuName,
    description: value.description,
    ...(value.dbBuild ? { dbBuild: value.dbBuild } : {}),
    recordCount: value.count,
    lastUpdate: isoLocalTime(value.lastUpdate) ?? value.lastUpdate,
    lastUpdateNcbi: value.lastUpdate,
    searchFields: value.fields,
    linkNames: value.links,
    eInfoUrl: url,
    documentationUrl: EINFO_DOCS_URL,
    retrievedAt: new Date(ctx.clock.now()).toISOString(),
  };
}

/**
 * EInfo's "2025/11/27 06:33" as ISO 8601 ("2025-11-27T06:33:00"). NCBI gives no time zone, so none is
 * added; undefined when the text is not in that form (the original is kept beside it either way).
 */
export function isoLocalTime(text: string): string | undefined {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})(?:\s+(\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00"] = m;
  return `${y}-${mo}-${d}T${h}:${mi}:00`;
}

export const pubmedStatsResource: ResourceDef = {
  toolset: "pubmed",
  name: "pubmedStats",
  title: "PubMed database statistics",
  description: "PubMed's record count, last update, searchable fields (the [tags] searchPubMedArticles " +
    "accepts) and link names, from NCBI EInfo. Refreshed at most every 12 hours. Base64 JSON blob.",
  mimeType: "application/json",
  uri: URI,
  async read(uri, _params, ctx) {
    const cache = ctx.shared(STATS, () => ({ at: 0 }));
    if (!cache.json || ctx.clock.now() - cache.at >= EINFO_TTL_MS) {
      cache.json = JSON.stringify(await pubmedStats(ctx), null, 2);
      cache.at = ctx.clock.now();
    }
    return [{ uri, mimeType: "application/json", blob: base64Utf8(cache.json) }];
  },
};
