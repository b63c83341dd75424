/**
 * The NCBI PMC ID Converter (`ncbi-idconv` upstream; the pipeline adds `tool` and `email`). Ids are sent
 * grouped by type (`idtype=pmid|pmcid|doi`, so the converter never has to guess) in batches of at most
 * 200, the converter's limit; answers come back in the order the ids were given.
 */
import type { SourceContext } from "../../context.ts";
import type { ArticleId, ArticleIdType } from "./ids.ts";
import { parseIdconv } from "./parse_idconv.ts";
import type { IdRecord } from "./types.ts";

export type IdconvCtx = Pick<SourceContext, "upstream" | "signal">;

/** Most ids the converter takes in one request. */
export const IDCONV_BATCH = 200;

/**
 * One record per given id, in the given order (duplicates answered once, then repeated).
 * @example await convertIds(ctx, [{ type: "pmid", id: "22416237" }]) // [{ requestedId: "22416237", pmcid: "PMC3299399", ... }]
 */
export async function convertIds(
  ctx: IdconvCtx,
  ids: readonly ArticleId[],
  onBatch?: (done: number, total: number) => Promise<void>,
): Promise<IdRecord[]> {
  const byType = new Map<ArticleIdType, string[]>();
  for (const { type, id } of ids) {
    const list = byType.get(type) ?? [];
    if (!list.some((x) => same(type, x, id))) list.push(id);
    byType.set(type, list);
  }
  const batches = [...byType].flatMap(([type, list]) =>
    Array.from({ length: Math.ceil(list.length / IDCONV_BATCH) }, (_, i) => ({
      type,
      ids: list.slice(i * IDCONV_BATCH, (i + 1) * IDCONV_BATCH),
    }))
  );
  const answers: { type: ArticleIdType; records: IdRecord[] }[] = [];
  for (const batch of batches) {
    const response = await ctx.upstream.request({
      upstream: "ncbi-idconv",
      path: "/",
      query: { ids: batch.ids.join(","), idtype: batch.type, format: "json" },
      accept: "application/json",
      signal: ctx.signal,
    });
    answers.push({ type: batch.type, records: parseIdconv(response.text(), response.url) });
    await onBatch?.(answers.length, batches.length);
  }
  return ids.map(({ type, id }) => {
    const found = answers.filter((a) => a.type === type).flatMap((a) => a.records).find((r) =>
      same(type, r.requestedId, id) || same(type, r[type] ?? "", id)
    );
    return found ? { ...found, requestedId: id } : { requestedId: id, error: "not in the converter's answer" };
  });
}

function same(type: ArticleIdType, a: string, b: string): boolean {
  return type === "doi" ? a.toLowerCase() === b.toLowerCase() : a.toUpperCase() === b.toUpperCase();
}
