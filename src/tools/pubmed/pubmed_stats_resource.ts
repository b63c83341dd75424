/**
 * `pubmed-connect://stats/pubmed`: EInfo db=pubmed parsed (record count, last update, search fields,
 * link names) under the seed's keys and types (`databaseName`, `totalRecordCount`, `availableSearchFields`
 * with `termCount` as NCBI's text, `availableLinkNames`, `eInfoUrl`). JSON text like `pubmed-connect://info`,
 * not the seed's base64 `blob`: clients that show only text resources would show nothing. PubMed's statistics change once a day at most, so
 * the result is kept for 12 hours per server, on top of whatever the upstream cache keeps.
 */
import { sharedKey } from "../../core/shared_key.ts";
import type { ResourceDef, ToolContext } from "../tool_def.ts";
import { eInfo, EINFO_TTL_MS } from "../../sources/ncbi/pubmed/client.ts";

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
    databaseName: value.menuName || value.dbName,
    menuName: value.menuName,
    description: value.description,
    totalRecordCount: value.count,
    lastUpdate: isoLocalTime(value.lastUpdate) ?? value.lastUpdate,
    availableSearchFields: value.fields.map((f) => ({
      name: f.name,
      fullName: f.fullName,
      description: f.description,
      isDate: f.isDate,
      isNumerical: f.isNumerical,
      // The seed's type is NCBI's text; PubMed has left it empty since about 2016.
      termCount: f.termCount === null ? "" : String(f.termCount),
      isHidden: f.isHidden,
    })),
    availableLinkNames: value.links.map((l) => ({
      name: l.name,
      description: l.description,
      dbTo: l.dbTo,
      menu: l.menu,
    })),
    eInfoUrl: url,
    // Beyond the seed:
    dbName: value.dbName,
    ...(value.dbBuild ? { dbBuild: value.dbBuild } : {}),
    lastUpdateNcbi: value.lastUpdate,
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
    "accepts) and link names, from NCBI EInfo. Refreshed at most every 12 hours. JSON text.",
  mimeType: "application/json",
  uri: URI,
  async read(uri, _params, ctx) {
    const cache = ctx.shared(STATS, () => ({ at: 0 }));
    if (!cache.json || ctx.clock.now() - cache.at >= EINFO_TTL_MS) {
      cache.json = JSON.stringify(await pubmedStats(ctx), null, 2);
      cache.at = ctx.clock.now();
    }
    return [{ uri, mimeType: "application/json", text: cache.json }];
  },
};
