/**
 * fetch_content for OpenAlex: the work's metadata, then its full text — through arXiv's HTML/ar5iv/PDF
 * chain when a copy is on arXiv (better text than a publisher PDF), else the open-access locations, else
 * (for a work with a DOI) PubMed Central and Europe PMC; with none, the work's metadata and abstract
 * (AbstractOnly, every location tried listed).
 */
import { doiUrl } from "../../../sources/doi_url.ts";
import type { ToolContext } from "../../tool_def.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import { logOperatorNotices } from "../operator_notices.ts";
import type { OpenAlexLocation, OpenAlexWork } from "../../../sources/openalex/types.ts";
import type { Warning } from "../schemas.ts";
import { abstractOnly } from "./abstract_doc.ts";
import { arxivText, type FoundText } from "./arxiv_text.ts";
import { Attempts } from "./attempts.ts";
import { publisherText } from "./publisher_text.ts";
import { repositoryText, withRecord } from "./repository_text.ts";
import type { ContentDoc, ContentMeta } from "./types.ts";

export async function openalexContent(ctx: ToolContext, id: string): Promise<ContentDoc> {
  const client = new OpenAlexClient(ctx);
  const work = await client.work(id);
  const attempts = new Attempts();
  const found = await openalexText(ctx, work, attempts);
  // Key and budget notices are the operator's business: the log, like every other OpenAlex path (#34).
  logOperatorNotices(ctx, client);
  const redirected: Warning[] = work.id.toUpperCase() === id.toUpperCase() ? [] : [{
    code: "IdRedirected",
    message: `OpenAlex answered ${id} with work ${work.id} (OpenAlex merges duplicate records and ` +
      "redirects the old id); the metadata and text are that work's.",
  }];
  if (found) {
    const doc = openalexDoc(work, found);
    return { ...doc, warnings: [...redirected, ...doc.warnings] };
  }
  if (attempts.list.length === 0) {
    attempts.reject("OpenAlex", `https://openalex.org/${work.id}`, "OpenAlex lists no open-access copy");
  }
  // A biomedical work without an open copy OpenAlex knows may still be read in PMC or Europe PMC.
  const repository = work.doi
    ? await repositoryText(ctx, { article: { type: "doi", id: work.doi } }, attempts)
    : undefined;
  const doc = repository?.doc ??
    withRecord(
      abstractOnly(openalexMeta(work), "the OpenAlex record", attempts, `https://openalex.org/${work.id}`),
      repository?.record,
      attempts,
    );
  return { ...doc, warnings: [...redirected, ...doc.warnings] };
}

/** Full text from the work's arXiv copy, else its open-access locations (arXiv ones skipped then). */
export async function openalexText(
  ctx: ToolContext,
  work: OpenAlexWork,
  attempts: Attempts,
): Promise<(FoundText & { viaArxiv: boolean }) | undefined> {
  const viaArxiv = work.arxivId ? await arxivText(ctx, work.arxivId, attempts) : undefined;
  if (viaArxiv) return { ...viaArxiv, viaArxiv: true };
  const locations = work.arxivId ? work.oaLocations.filter((l) => !onArxiv(l)) : work.oaLocations;
  const found = await publisherText(ctx, locations, attempts);
  return found && { ...found, viaArxiv: false };
}

/** The doc of a work whose text was found. */
export function openalexDoc(work: OpenAlexWork, found: FoundText & { viaArxiv: boolean }): ContentDoc {
  return {
    meta: openalexMeta(work),
    text: found.text,
    format: found.format,
    contentUrl: found.url,
    warnings: found.format === "html" && !found.viaArxiv
      ? [{ code: "PublisherPage", message: `Text extracted from the publisher's web page ${found.url}.` }]
      : [],
  };
}

/** arXiv copies were already tried through the arXiv chain. */
function onArxiv(l: OpenAlexLocation): boolean {
  return [l.pdfUrl, l.landingPageUrl].some((u) =>
    u !== undefined && /^https?:\/\/(www\.|export\.)?arxiv\.org\//i.test(u)
  );
}

export function openalexMeta(w: OpenAlexWork): ContentMeta {
  return {
    id: w.id,
    title: w.title ?? null,
    authors: w.authors,
    date: w.publicationDate ?? null,
    ...(w.abstract ? { abstract: w.abstract } : {}),
    ...(w.doi ? { doi: w.doi } : {}),
    ...(w.pdfUrl ? { pdf_url: w.pdfUrl } : {}),
    url: w.doi ? doiUrl(w.doi) : `https://openalex.org/${w.id}`,
    ...(w.venue ? { venue: w.venue } : {}),
    ...(w.type ? { type: w.type } : {}),
    ...(w.citedByCount !== undefined ? { cited_by_count: w.citedByCount } : {}),
  };
}
