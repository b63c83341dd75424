/**
 * One work as the citation tools list it: the ids that chain into other tools first (W id for
 * get_citation_graph, DOI for fetch_content, PMID for fetchArticleDetails), then what identifies it.
 */
import { z } from "../../../core/zod.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";

export const workItemSchema = z.object({
  openalex: z.string().optional(),
  doi: z.string().optional(),
  pmid: z.string().optional(),
  pmcid: z.string().optional(),
  arxiv: z.string().optional(),
  title: z.string().optional(),
  year: z.string().optional(),
  venue: z.string().optional(),
  authors: z.array(z.string()).optional().describe("First three"),
  cited_by: z.number().optional(),
  retracted: z.boolean().optional().describe("OpenAlex is_retracted"),
});

export type WorkItem = z.infer<typeof workItemSchema>;

export function workItem(w: OpenAlexWork): WorkItem {
  const item: WorkItem = {
    openalex: w.id || undefined,
    doi: w.doi,
    pmid: w.pmid,
    pmcid: w.pmcid,
    arxiv: w.arxivId,
    title: w.title,
    year: w.publicationDate?.slice(0, 4),
    venue: w.venue,
    authors: w.authors.length ? w.authors.slice(0, 3) : undefined,
    cited_by: w.citedByCount,
    retracted: w.isRetracted || undefined,
  };
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as WorkItem;
}

/** `W123 · DOI 10.1/x · PMID 1: Title (2020, Venue; 3 citations) RETRACTED`: ids first, one line. */
export function workLine(w: WorkItem): string {
  const ids = [
    w.openalex,
    w.doi && `DOI ${w.doi}`,
    w.pmid && `PMID ${w.pmid}`,
    w.pmcid,
    w.arxiv && `arXiv ${w.arxiv}`,
  ].filter(Boolean).join(" · ");
  const about = [w.year, w.venue, w.authors?.join(", "), w.cited_by !== undefined && `cited by ${w.cited_by}`]
    .filter(Boolean).join("; ");
  return `${ids}: ${w.title ?? "(untitled)"}${about ? ` (${about})` : ""}${w.retracted ? " RETRACTED" : ""}`;
}
