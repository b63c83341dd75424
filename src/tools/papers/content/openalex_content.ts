/**
 * fetch_content for OpenAlex: the work's metadata, then its full text — through arXiv's HTML/ar5iv/PDF
 * chain when a copy is on arXiv (better text than a publisher PDF), else the open-access locations.
 */
import type { ToolContext } from "../../tool_def.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import type { OpenAlexLocation, OpenAlexWork } from "../../../sources/openalex/types.ts";
import { arxivText } from "./arxiv_text.ts";
import { Attempts } from "./attempts.ts";
import { publisherText } from "./publisher_text.ts";
import type { ContentDoc, ContentMeta } from "./types.ts";

export async function openalexContent(ctx: ToolContext, id: string): Promise<ContentDoc> {
  const client = new OpenAlexClient(ctx);
  const work = await client.work(id);
  const attempts = new Attempts();
  const viaArxiv = work.arxivId ? await arxivText(ctx, work.arxivId, attempts) : undefined;
  const locations = work.arxivId ? work.oaLocations.filter((l) => !onArxiv(l)) : work.oaLocations;
  const found = viaArxiv ?? await publisherText(ctx, locations, attempts);
  if (!found) {
    const where = work.doi ? `https://doi.org/${work.doi}` : `https://openalex.org/${work.id}`;
    if (attempts.list.length === 0) {
      throw attempts.failure(
        `${work.id}: OpenAlex lists no open-access copy`,
        `It may be pay-walled; the record is at ${where}. Look for a preprint (e.g. on arXiv) of the same title.`,
      );
    }
    const abstract = work.abstract ? "; its abstract is in the OpenAlex record" : "";
    throw attempts.failure(work.id, `The record is at ${where}${abstract}.`);
  }
  return {
    meta: openalexMeta(work),
    text: found.text,
    format: found.format,
    contentUrl: found.url,
    warnings: [
      ...client.notices(),
      ...(found.format === "html" && !viaArxiv
        ? [{ code: "PublisherPage", message: `Text extracted from the publisher's web page ${found.url}.` }]
        : []),
    ],
  };
}

/** arXiv copies were already tried through the arXiv chain. */
function onArxiv(l: OpenAlexLocation): boolean {
  return [l.pdfUrl, l.landingPageUrl].some((u) =>
    u !== undefined && /^https?:\/\/(www\.|export\.)?arxiv\.org\//i.test(u)
  );
}

function openalexMeta(w: OpenAlexWork): ContentMeta {
  return {
    id: w.id,
    title: w.title ?? null,
    authors: w.authors,
    date: w.publicationDate ?? null,
    ...(w.abstract ? { abstract: w.abstract } : {}),
    ...(w.doi ? { doi: w.doi } : {}),
    ...(w.pdfUrl ? { pdf_url: w.pdfUrl } : {}),
    url: w.doi ? `https://doi.org/${w.doi}` : `https://openalex.org/${w.id}`,
    ...(w.venue ? { venue: w.venue } : {}),
    ...(w.type ? { type: w.type } : {}),
    ...(w.citedByCount !== undefined ? { cited_by_count: w.citedByCount } : {}),
  };
}
