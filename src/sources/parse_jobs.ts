/**
 * Every parse job the worker can run, by name. Only the worker imports this table (importing it loads
 * every parser); a source hands its own job to parseBody, and the worker finds the same one here.
 */
import { arxivFeedJob } from "./arxiv/parse_atom.ts";
import { htmlTextJob } from "./html/html_to_text.ts";
import { geneRecordJob } from "./ncbi/gene/parse_efetch_gene.ts";
import { pubmedArticlesJob } from "./ncbi/pubmed/parse_efetch.ts";
import { workJob, worksListJob } from "./openalex/parse_work.ts";
import type { ParseJob } from "./parse_job.ts";
import { europePmcArticlesJob, pmcArticlesJob } from "./pmc/parse_jats.ts";

export const PARSE_JOBS: ReadonlyMap<string, ParseJob<never[], unknown>> = new Map(
  [
    geneRecordJob,
    worksListJob,
    workJob,
    pmcArticlesJob,
    europePmcArticlesJob,
    pubmedArticlesJob,
    arxivFeedJob,
    htmlTextJob,
  ].map((job) => [job.name, job as unknown as ParseJob<never[], unknown>]),
);
