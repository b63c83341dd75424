/**
 * `pubmed-connect://stats/pubmed`: EInfo db=pubmed parsed (record count, last update, search fields,
 * link names). PubMed's statistics change once a day at most, so the result is kept for 12 hours per
 * server, on top of whatever the upstream cache keeps.
 */
import { sharedKey } from "../../core/shared_key.ts";
import type { ResourceDef, ToolContext } from "../tool_def.ts";
import { eInfo, EINFO_TTL_MS } from "../../sources/ncbi/pubmed/client.ts";

const URI = "pubmed-connect://stats/pubmed";

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
    lastUpdate: value.lastUpdate,
    searchFields: value.fields,
    linkNames: value.links,
    eInfoUrl: url,
    retrievedAt: new Date(ctx.clock.now()).toISOString(),
  };
}

export const pubmedStatsResource: ResourceDef = {
  toolset: "pubmed",
  name: "pubmedStats",
  title: "PubMed database statistics",
  description: "PubMed's record count, last update, searchable fields (the [tags] searchPubMedArticles " +
    "accepts) and link names, from NCBI EInfo. Refreshed at most every 12 hours. JSON.",
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
