/**
 * fetch_content for PMIDs, PMCIDs, DOIs of any publisher and Europe PMC records, tier by tier: PubMed
 * Central, then Europe PMC's open-access XML, then the open-access locations OpenAlex records for the
 * work (its arXiv copy, a publisher PDF through the contained extractor, or a publisher page; every hop
 * through the SSRF guard and size caps). Only locations taken from these records are fetched, never a
 * URL from the caller. Without full text: the abstract (PubMed, else Europe PMC, else OpenAlex) with every
 * tier tried and why it failed. A retraction any record states is carried onto the answer.
 */
import { ToolError } from "../../../core/errors.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";
import type { EuropePmcRecord } from "../../../sources/europepmc/types.ts";
import type { ToolContext } from "../../tool_def.ts";
import { abstractOnly } from "./abstract_doc.ts";
import { Attempts } from "./attempts.ts";
import { type ArticleIds, landingUrl, recordMeta } from "./europepmc_content.ts";
import { openalexDoc, openalexMeta, openalexText } from "./openalex_content.ts";
import { pubmedRecord } from "./pmc_content.ts";
import { type ArticleTarget, repositoryText, withRecord } from "./repository_text.ts";
import type { ContentDoc } from "./types.ts";

export type { ArticleTarget };

export async function articleContent(ctx: ToolContext, target: ArticleTarget): Promise<ContentDoc> {
  const attempts = new Attempts();
  await ctx.progress(0, 3, "looking in PubMed Central and Europe PMC");
  const { doc, record, ids } = await repositoryText(ctx, target, attempts);
  if (doc) return doc;
  await ctx.progress(1, 3, "looking for an open-access copy through OpenAlex");
  const work = await openalexWork(ctx, ids, attempts);
  if (work) {
    const found = await openalexText(ctx, work, attempts);
    if (found) return withRecord(openalexDoc(work, found), record, attempts);
  }
  await ctx.progress(2, 3, "no open full text: taking the abstract");
  return await fallback(ctx, target, ids, record, work, attempts);
}

/** The OpenAlex work of a DOI or PMID; a failed lookup is noted in `attempts` and gives undefined. */
export async function openalexWork(
  ctx: ToolContext,
  ids: Pick<ArticleIds, "doi" | "pmid">,
  attempts: Attempts,
): Promise<OpenAlexWork | undefined> {
  const key = ids.doi ? `doi:${pathSafe(ids.doi)}` : ids.pmid ? `pmid:${ids.pmid}` : undefined;
  if (!key) return undefined;
  try {
    return await new OpenAlexClient(ctx).work(key);
  } catch (error) {
    attempts.fail("OpenAlex", ctx.upstream.describe({ upstream: "openalex", path: `/works/${key}` }), error);
    return undefined;
  }
}

/**
 * A DOI as path segments of an OpenAlex URL: each segment percent-encoded and `.`/`..` segments kept
 * literal, so no DOI (`10.1/../../authors`, `10.1/x?y#z`) can point the request at another path.
 */
export function pathSafe(doi: string): string {
  return doi.split("/").map((seg) => /^\.{1,2}$/.test(seg) ? seg.replaceAll(".", "%2E") : encodeURIComponent(seg))
    .join("/");
}

/** The abstract from the best record in hand: PubMed, else Europe PMC, else OpenAlex. */
async function fallback(
  ctx: ToolContext,
  target: ArticleTarget,
  ids: ArticleIds,
  record: EuropePmcRecord | undefined,
  work: OpenAlexWork | undefined,
  attempts: Attempts,
): Promise<ContentDoc> {
  const pubmed = ids.pmid ? await pubmedRecord(ctx, ids.pmid, attempts) : undefined;
  if (pubmed) {
    return withRecord(abstractOnly(pubmed.meta, "the PubMed abstract", attempts, pubmed.url), record, attempts);
  }
  if (record) {
    return withRecord(
      abstractOnly(recordMeta(record), "the Europe PMC record", attempts, landingUrl(record)),
      record,
      attempts,
    );
  }
  if (work) {
    return withRecord(
      abstractOnly(openalexMeta(work), "the OpenAlex record", attempts, `https://openalex.org/${work.id}`),
      record,
      attempts,
    );
  }
  const what = "epmc" in target
    ? `Europe PMC record ${target.epmc.source}:${target.epmc.id}`
    : `${target.article.type.toUpperCase()} ${target.article.id}`;
  // A source that was busy or down may hold the record: that is no proof the id is unknown.
  if (attempts.list.some((a) => a.transient)) {
    throw new ToolError(
      attempts.list.some((a) => a.throttled) ? "RATE_LIMITED" : "UPSTREAM_ERROR",
      `Could not look up ${what} right now (${attempts.summary()}).`,
      "Retry in a minute; some sources were throttled or failing.",
    );
  }
  throw new ToolError(
    "ENTITY_NOT_FOUND",
    `No PubMed, PMC, Europe PMC or OpenAlex record found for ${what} (${attempts.summary()}).`,
    "Check the id (e.g. PMID 22416237, PMCID PMC3299399, DOI 10.3389/fpsyt.2012.00018, Europe PMC PPR:PPR1036674); " +
      "search_papers finds ids by keyword.",
  );
}
