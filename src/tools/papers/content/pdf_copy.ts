/**
 * The open-access PDF of a paper for save_paper, through fetch_content's tiers and address rules: arXiv's
 * PDF of an arXiv id (or of a work OpenAlex places on arXiv), the PDF links of the Europe PMC record (its
 * rendering of the PubMed Central copy), then the PDF links of the work's OpenAlex open-access locations.
 * Only URLs taken from these records are fetched, each through the SSRF guard and the size cap; every
 * candidate is opened by the contained extractor before it counts (a file that is not a readable PDF is
 * refused and the next tier tried). The citation metadata comes from the same records.
 */
import { ToolError } from "../../../core/errors.ts";
import { entryById } from "../../../sources/arxiv/client.ts";
import type { ArxivEntry } from "../../../sources/arxiv/types.ts";
import { arxivPdfRequest } from "../../../sources/arxiv/web.ts";
import type { EuropePmcRecord } from "../../../sources/europepmc/types.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";
import type { PaperIds } from "../../../sources/pdf/paper_library.ts";
import { pdfExtractor } from "../../../sources/pdf/extractor.ts";
import { PdfExtractionError } from "../../../sources/pdf/types.ts";
import { fetchPublisher } from "../../../sources/publisher/fetch.ts";
import type { WorkRef } from "../../../sources/works/ids.ts";
import type { ToolContext } from "../../tool_def.ts";
import { papersDeps } from "../deps.ts";
import { openalexWork } from "./article_content.ts";
import { Attempts } from "./attempts.ts";
import { lookupRecord } from "./europepmc_content.ts";
import { looksLikePdf } from "./pdf_text.ts";
import { PUBLISHER_TIMEOUT_MS } from "./publisher_text.ts";
import { resolveIds } from "./pmc_content.ts";

/** What the records say about the paper (the sidecar's fields). */
export interface PaperMeta {
  ids: PaperIds;
  title: string | null;
  authors: string[];
  year: number | null;
  venue: string | null;
  licence: string | null;
}

export interface PdfCopy {
  bytes: Uint8Array;
  url: string;
  pages: number;
  /** The licence of the location the copy came from, when it states one. */
  licence?: string;
  /** The copy has no text layer (scanned): kept, but search will find nothing in it. */
  noText?: boolean;
}

export interface CopyResult {
  meta: PaperMeta;
  copy?: PdfCopy;
  attempts: Attempts;
}

/** Most OpenAlex locations whose PDF links are tried. */
const MAX_LOCATIONS = 3;

export async function findPdfCopy(ctx: ToolContext, ref: WorkRef): Promise<CopyResult> {
  const attempts = new Attempts();
  if (ref.kind === "arxiv") return await arxivCopy(ctx, ref.id, attempts);
  if (ref.kind === "openalex") {
    const work = await new OpenAlexClient(ctx).work(ref.id);
    return { meta: workMeta(work), copy: await workCopy(ctx, work, attempts), attempts };
  }
  const ids = await resolveIds(ctx, { type: ref.kind, id: ref.id }, attempts);
  const record = await lookupRecord(ctx, { [ref.kind]: ref.id }, attempts);
  ids.pmid ??= record?.pmid;
  ids.pmcid ??= record?.pmcid;
  ids.doi ??= record?.doi;
  let copy = record ? await europePmcCopy(ctx, record, attempts) : undefined;
  const work = copy ? undefined : await openalexWork(ctx, ids, attempts);
  copy ??= work ? await workCopy(ctx, work, attempts) : undefined;
  const meta = record ? recordMeta(record) : work ? workMeta(work) : undefined;
  if (!meta) {
    if (attempts.list.some((a) => a.transient)) throw attempts.failure(`${ref.kind.toUpperCase()} ${ref.id}`, "");
    throw new ToolError(
      "ENTITY_NOT_FOUND",
      `No Europe PMC or OpenAlex record found for ${ref.kind.toUpperCase()} ${ref.id} (${attempts.summary()}).`,
      "Check the id; search_papers finds ids by keyword.",
    );
  }
  meta.ids = { ...meta.ids, ...definedIds({ pmid: ids.pmid, pmcid: ids.pmcid, doi: ids.doi }), [ref.kind]: ref.id };
  return { meta, copy, attempts };
}

async function arxivCopy(ctx: ToolContext, id: string, attempts: Attempts): Promise<CopyResult> {
  const entry = await entryById(ctx, id);
  if (!entry) {
    throw new ToolError(
      "ENTITY_NOT_FOUND",
      `arXiv has no paper ${id}.`,
      "Check the id (e.g. 2104.12255 or hep-th/9901001); search_papers finds ids.",
    );
  }
  return { meta: entryMeta(entry), copy: await arxivPdf(ctx, entry.id, attempts), attempts };
}

/** arXiv's PDF of `id` on the arxiv-web upstream (the address fetch_content reads PDFs from). */
async function arxivPdf(ctx: ToolContext, id: string, attempts: Attempts): Promise<PdfCopy | undefined> {
  const request = arxivPdfRequest(id, maxBytes(ctx));
  await ctx.progress(1, 3, `downloading the arXiv PDF of ${id}`);
  try {
    const response = await ctx.upstream.request({ ...request, signal: ctx.signal });
    return await checked(ctx, "arXiv PDF", response.url, response.body, response.headers, attempts);
  } catch (error) {
    attempts.fail("arXiv PDF", ctx.upstream.describe(request), error);
    return undefined;
  }
}

async function europePmcCopy(
  ctx: ToolContext,
  record: EuropePmcRecord,
  attempts: Attempts,
): Promise<PdfCopy | undefined> {
  const urls = record.pdfUrls ?? [];
  if (!urls.length) {
    attempts.reject(
      "Europe PMC PDF",
      `https://europepmc.org/article/${record.source}/${record.id}`,
      "no open PDF link",
    );
  }
  for (const url of urls.slice(0, 2)) {
    const copy = EUROPE_PMC_HOSTS.has(hostOf(url))
      ? await europePmcPdf(ctx, url, attempts)
      : await linkedPdf(ctx, "Europe PMC PDF", url, attempts);
    if (copy) return { ...copy, ...(record.license ? { licence: record.license } : {}) };
  }
  return undefined;
}

/**
 * Europe PMC's own hosts, which the europepmc upstream (and so every shipped permission set) covers: their
 * PDF links go through the pipeline like the API, with its pacing and same-host redirects, and need no DNS
 * lookup of their own (a lookup needs net access to the resolver, which the confined sets do not grant).
 */
const EUROPE_PMC_HOSTS = new Set(["europepmc.org", "www.ebi.ac.uk"]);

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

async function europePmcPdf(ctx: ToolContext, url: string, attempts: Attempts): Promise<PdfCopy | undefined> {
  await ctx.progress(1, 3, `downloading Europe PMC's PDF ${url}`);
  try {
    const response = await ctx.upstream.request({
      upstream: "europepmc",
      url,
      accept: "application/pdf",
      maxBytes: maxBytes(ctx),
      signal: ctx.signal,
    });
    return await checked(ctx, "Europe PMC PDF", response.url, response.body, response.headers, attempts);
  } catch (error) {
    attempts.fail("Europe PMC PDF", url, error);
    return undefined;
  }
}

async function workCopy(ctx: ToolContext, work: OpenAlexWork, attempts: Attempts): Promise<PdfCopy | undefined> {
  if (work.arxivId) {
    const copy = await arxivPdf(ctx, work.arxivId, attempts);
    if (copy) return copy;
  }
  const locations = work.oaLocations.filter((l) =>
    l.pdfUrl && !/^https?:\/\/(www\.|export\.)?arxiv\.org\//i.test(l.pdfUrl)
  );
  if (!locations.length) {
    attempts.reject("OpenAlex", `https://openalex.org/${work.id}`, "OpenAlex lists no open PDF link");
  }
  for (const location of locations.slice(0, MAX_LOCATIONS)) {
    const url = location.pdfUrl!;
    const copy = EUROPE_PMC_HOSTS.has(hostOf(url))
      ? await europePmcPdf(ctx, url, attempts)
      : await linkedPdf(ctx, "publisher PDF", url, attempts);
    if (copy) return { ...copy, ...(location.license ? { licence: location.license } : {}) };
  }
  return undefined;
}

/** A PDF link from a record, through the SSRF guard hop by hop. */
async function linkedPdf(
  ctx: ToolContext,
  what: string,
  url: string,
  attempts: Attempts,
): Promise<PdfCopy | undefined> {
  const deps = papersDeps(ctx);
  await ctx.progress(1, 3, `downloading ${what} ${url}`);
  try {
    const { response } = await fetchPublisher(ctx, url, {
      resolveDns: deps.resolveDns,
      allowLoopback: deps.allowLoopbackPublisher,
      maxBytes: maxBytes(ctx),
      timeoutMs: PUBLISHER_TIMEOUT_MS,
      accept: "application/pdf",
    });
    return await checked(ctx, what, response.url, response.body, response.headers, attempts);
  } catch (error) {
    attempts.fail(what, url, error);
    return undefined;
  }
}

/** The copy, once the contained extractor has opened it; a file that is not a readable PDF is refused. */
async function checked(
  ctx: ToolContext,
  what: string,
  url: string,
  body: Uint8Array,
  headers: Headers,
  attempts: Attempts,
): Promise<PdfCopy | undefined> {
  if (!looksLikePdf(body)) {
    attempts.reject(what, url, `not a PDF (${headers.get("content-type") ?? "no content type"}): not kept`);
    return undefined;
  }
  await ctx.progress(2, 3, `opening the ${Math.round(body.byteLength / 1024)} KiB PDF`);
  const extractor = papersDeps(ctx).extractor ?? pdfExtractor(ctx);
  try {
    const text = await extractor.extract(body.slice(), {
      signal: ctx.signal,
      maxPages: ctx.config.pdf.maxPages,
      timeoutMs: ctx.config.pdf.timeoutMs,
    });
    return { bytes: body, url, pages: text.pageCount };
  } catch (error) {
    if (error instanceof PdfExtractionError && error.reason === "no_text") {
      return { bytes: body, url, pages: error.pageCount ?? 0, noText: true };
    }
    if (!(error instanceof PdfExtractionError)) throw error;
    attempts.reject(what, url, `not a readable PDF (${error.reason}: ${error.message}): not kept`);
    return undefined;
  }
}

function maxBytes(ctx: ToolContext): number {
  return Math.min(ctx.config.pdf.maxBytes, ctx.config.upstreamMaxBytes);
}

function definedIds(ids: Record<string, unknown>): PaperIds {
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => typeof v === "string" && v)) as PaperIds;
}

function year(date: string | null | undefined): number | null {
  const y = Number(date?.slice(0, 4));
  return Number.isInteger(y) && y > 0 ? y : null;
}

function entryMeta(e: ArxivEntry): PaperMeta {
  return {
    ids: definedIds({ arxiv: e.id, doi: e.doi }),
    title: e.title || null,
    authors: e.authors,
    year: year(e.published),
    venue: e.journalRef ?? "arXiv",
    licence: null,
  };
}

function recordMeta(r: EuropePmcRecord): PaperMeta {
  return {
    ids: definedIds({ pmid: r.pmid, pmcid: r.pmcid, doi: r.doi }),
    title: r.title,
    authors: r.authors,
    year: year(r.date),
    venue: r.venue ?? null,
    licence: r.license ?? null,
  };
}

function workMeta(w: OpenAlexWork): PaperMeta {
  return {
    ids: definedIds({ openalex: w.id, doi: w.doi, pmid: w.pmid, pmcid: w.pmcid, arxiv: w.arxivId }),
    title: w.title ?? null,
    authors: w.authors,
    year: year(w.publicationDate),
    venue: w.venue ?? null,
    licence: w.oaLocations.find((l) => l.license)?.license ?? null,
  };
}
