/**
 * PubMed Central full text: EFetch db=pmc on the `ncbi-eutils` upstream (the same queue and credentials as
 * PubMed), returning the JATS article parsed. PMC takes the numeric part of a PMCID as `id`.
 */
import type { SourceContext } from "../../context.ts";
import { parseBody } from "../parse_off_thread.ts";
import { parseError, pmcArticlesJob } from "./parse_jats.ts";
import type { PmcArticle } from "./types.ts";

export type PmcCtx = Pick<SourceContext, "upstream" | "signal">;

/**
 * The article, or undefined when PMC sent none for this id.
 * @throws UpstreamError when PMC answers something that is not a PMC article set, or another article.
 * @example (await pmcArticle(ctx, "PMC3299399"))?.sections[0].heading // "Introduction"
 */
export async function pmcArticle(ctx: PmcCtx, pmcid: string): Promise<{ article?: PmcArticle; url: string }> {
  const response = await ctx.upstream.request({
    upstream: "ncbi-eutils",
    path: "/efetch.fcgi",
    query: { db: "pmc", id: pmcid.replace(/^PMC/i, ""), retmode: "xml" },
    accept: "application/xml",
    signal: ctx.signal,
  });
  const article = (await parseBody(pmcArticlesJob, response, [], ctx.signal))[0];
  const wanted = `PMC${pmcid.replace(/^PMC/i, "")}`;
  if (article?.pmcid && article.pmcid !== wanted) {
    throw parseError(response.url, `PMC answered with ${article.pmcid} when asked for ${wanted}`);
  }
  return { article, url: response.url };
}
