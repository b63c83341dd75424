/**
 * fetch_content for arXiv: metadata from the API (or, when the API is throttled or down, from the
 * abstract page on the web host) and the full text, fetched side by side since they use different hosts;
 * with no text anywhere, the abstract (AbstractOnly, every step tried listed).
 */
import { ToolError, UpstreamError } from "../../../core/errors.ts";
import type { ToolContext } from "../../tool_def.ts";
import { entryById } from "../../../sources/arxiv/client.ts";
import { sameArxivPaper } from "../../../sources/arxiv/ids.ts";
import { parseAbsPage } from "../../../sources/arxiv/parse_abs_page.ts";
import type { ArxivEntry } from "../../../sources/arxiv/types.ts";
import { absPageRequest } from "../../../sources/arxiv/web.ts";
import type { Warning } from "../schemas.ts";
import { arxivText } from "./arxiv_text.ts";
import { abstractOnly } from "./abstract_doc.ts";
import { Attempts } from "./attempts.ts";
import type { ContentDoc, ContentMeta } from "./types.ts";

export async function arxivContent(ctx: ToolContext, id: string): Promise<ContentDoc> {
  const attempts = new Attempts();
  const [meta, text] = await Promise.allSettled([metadata(ctx, id), arxivText(ctx, id, attempts)]);
  if (meta.status === "rejected") throw meta.reason;
  if (!meta.value) {
    throw new ToolError(
      "ENTITY_NOT_FOUND",
      `arXiv has no paper ${id}.`,
      "Check the id (e.g. 2104.12255 or hep-th/9901001); fetch_latest lists recent ids.",
      { invalidInput: { field: "id", value: id } },
    );
  }
  if (text.status === "rejected") throw text.reason;
  const { entry, warnings } = meta.value;
  if (!text.value) {
    const doc = abstractOnly(arxivMeta(entry), "the arXiv abstract", attempts, entry.absUrl);
    return { ...doc, warnings: [...warnings, ...doc.warnings] };
  }
  return {
    meta: arxivMeta(entry),
    text: text.value.text,
    format: text.value.format,
    contentUrl: text.value.url,
    warnings,
  };
}

async function metadata(ctx: ToolContext, id: string): Promise<{ entry: ArxivEntry; warnings: Warning[] } | undefined> {
  try {
    const entry = await entryById(ctx, id);
    return entry ? { entry, warnings: [] } : undefined;
  } catch (error) {
    if (!transient(error)) throw error;
    const fallback = await absPage(ctx, id);
    if (!fallback) throw error;
    const missing = fallback.categories.length ? "" : " The page lists no categories.";
    return {
      entry: fallback,
      warnings: [{
        code: "MetadataFromAbstractPage",
        message: `The arXiv API was unavailable (${(error as Error).message}); metadata comes from the abstract ` +
          `page ${fallback.absUrl}.${missing}`,
      }],
    };
  }
}

/** The abstract page's metadata, only if the page is about `id` (a redirect to another paper does not count). */
async function absPage(ctx: ToolContext, id: string): Promise<ArxivEntry | undefined> {
  try {
    const response = await ctx.upstream.request({ ...absPageRequest(id), signal: ctx.signal });
    const entry = parseAbsPage(response.text());
    if (entry && !sameArxivPaper(id, entry.id)) {
      ctx.log.warn("arXiv abstract page is about another paper", { requested: id, page: entry.id });
      return undefined;
    }
    return entry;
  } catch {
    return undefined;
  }
}

function transient(error: unknown): boolean {
  return error instanceof UpstreamError &&
    (error.status === 429 || error.kind === "policy" || error.kind === "timeout" || error.kind === "network" ||
      (error.status ?? 0) >= 500);
}

function arxivMeta(e: ArxivEntry): ContentMeta {
  return {
    id: e.id,
    title: e.title || null,
    authors: e.authors,
    date: e.published ? e.published.slice(0, 10) : null,
    ...(e.updated ? { updated: e.updated.slice(0, 10) } : {}),
    ...(e.summary ? { abstract: e.summary } : {}),
    ...(e.doi ? { doi: e.doi } : {}),
    pdf_url: e.pdfUrl ?? `https://arxiv.org/pdf/${e.id}`,
    url: e.absUrl,
    ...(e.categories.length ? { categories: e.categories } : {}),
    ...(e.journalRef ? { journal_ref: e.journalRef } : {}),
    ...(e.comment ? { comment: e.comment } : {}),
  };
}
