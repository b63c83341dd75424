/**
 * Any work id → the best bibliographic record the server can get: PubMed for PMIDs (one EFetch for all),
 * Crossref for DOIs (OpenAlex when Crossref does not know the DOI, e.g. DataCite DOIs), OpenAlex for
 * arXiv ids, PMCIDs and W ids. Each record keeps the retraction notice its source carries.
 */
import { ToolError } from "../../../core/errors.ts";
import type { SourceContext } from "../../../context.ts";
import { entryById } from "../../../sources/arxiv/client.ts";
import { crossrefWork } from "../../../sources/crossref/client.ts";
import { retractionNotices, workUpdates } from "../../../sources/crossref/parse_work.ts";
import type { WorkUpdate } from "../../../sources/works/updates.ts";
import type { CrossrefWork } from "../../../sources/crossref/types.ts";
import { eFetchArticles } from "../../../sources/ncbi/pubmed/client.ts";
import { isRetracted, type PubMedArticle } from "../../../sources/ncbi/pubmed/types.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";
import { openalexKey, type WorkRef } from "../../../sources/works/ids.ts";
import type { CslItem } from "../../../sources/citations/csl.ts";
import { arxivToCsl } from "../../../sources/citations/from/arxiv.ts";
import { crossrefToCsl } from "../../../sources/citations/from/crossref.ts";
import { openalexToCsl } from "../../../sources/citations/from/openalex.ts";
import { pubmedToCsl } from "../../../sources/citations/from/pubmed.ts";

export type RecordSource = "PubMed" | "Crossref" | "OpenAlex" | "arXiv";

export interface ResolvedRecord {
  /** The work as CSL-JSON, the one record every format is made from. */
  record: CslItem;
  source: RecordSource;
  /** The notice, when the source marks the work retracted. */
  retraction?: string;
  /** Corrections, expressions of concern, retractions the source lists (beside the CSL item: CSL has no field). */
  updates?: WorkUpdate[];
}

export type Resolution = ResolvedRecord | { notFound: string };

type Ctx = Pick<SourceContext, "upstream" | "signal" | "config">;

/** Resolutions in the order of `refs`. */
export async function resolveRecords(refs: readonly WorkRef[], ctx: Ctx): Promise<Resolution[]> {
  const pmids = [...new Set(refs.filter((r) => r.kind === "pmid").map((r) => r.id))];
  const articles = pmids.length ? await pubmedArticles(pmids, ctx) : new Map<string, PubMedArticle>();
  const client = new OpenAlexClient(ctx);
  const out: Resolution[] = [];
  for (const ref of refs) {
    if (ref.kind === "pmid") {
      const a = articles.get(ref.id);
      out.push(a ? pubmedResolved(a) : { notFound: `PubMed has no record for PMID ${ref.id}` });
    } else if (ref.kind === "doi") {
      out.push(await byDoi(ref, ctx, client));
    } else {
      const viaOpenAlex = await openalexResolved(ref, client);
      out.push("notFound" in viaOpenAlex && ref.kind === "arxiv" ? await arxivResolved(ref, ctx) : viaOpenAlex);
    }
  }
  return out;
}

export async function pubmedArticles(pmids: readonly string[], ctx: Ctx): Promise<Map<string, PubMedArticle>> {
  return new Map((await eFetchArticles(ctx, pmids)).value.map((a) => [a.pmid, a]));
}

export function pubmedResolved(a: PubMedArticle): ResolvedRecord {
  return {
    record: pubmedToCsl(a),
    source: "PubMed",
    ...(isRetracted(a) ? { retraction: pubmedNotice(a) } : {}),
    ...(a.updates?.length ? { updates: a.updates } : {}),
  };
}

/** `PubMed: retraction notice PMID 20137807 (Lancet. 2010 …)`, or the publication type alone. */
export function pubmedNotice(a: Pick<PubMedArticle, "retractedIn">): string {
  const notices = (a.retractedIn ?? []).map((n) =>
    [n.pmid && `PMID ${n.pmid}`, n.refSource && `(${n.refSource})`].filter(Boolean).join(" ")
  );
  return notices.length ? `PubMed: retraction notice ${notices.join("; ")}` : 'PubMed: "Retracted Publication"';
}

/** `Crossref: retraction 10.5555/24242424x (2009-09-14, publisher)`, or undefined. */
export function crossrefNotice(w: CrossrefWork): string | undefined {
  const notices = retractionNotices(w).map((u) =>
    `${u.type}${u.doi ? ` ${u.doi}` : ""}${
      u.date || u.source ? ` (${[u.date, u.source].filter(Boolean).join(", ")})` : ""
    }`
  );
  return notices.length ? `Crossref: ${notices.join("; ")}` : undefined;
}

async function byDoi(ref: WorkRef, ctx: Ctx, client: OpenAlexClient): Promise<Resolution> {
  try {
    const work = await crossrefWork(ctx, ref.id);
    const notice = crossrefNotice(work);
    const updates = workUpdates(work);
    return {
      record: crossrefToCsl(work),
      source: "Crossref",
      ...(notice ? { retraction: notice } : {}),
      ...(updates.length ? { updates } : {}),
    };
  } catch (error) {
    if (!(error instanceof ToolError && error.code === "ENTITY_NOT_FOUND")) throw error;
    return await openalexResolved(ref, client);
  }
}

async function openalexResolved(ref: WorkRef, client: OpenAlexClient): Promise<Resolution> {
  const work = await openalexWork(ref, client);
  if (!work) return { notFound: `neither Crossref nor OpenAlex knows ${ref.kind} ${ref.id}` };
  // An arXiv id the caller gave names the preprint even when OpenAlex does not list it.
  const record = openalexToCsl(ref.kind === "arxiv" && !work.arxivId ? { ...work, arxivId: ref.id } : work);
  return { record, source: "OpenAlex", ...(work.isRetracted ? { retraction: "OpenAlex: is_retracted" } : {}) };
}

/** arXiv's own entry, for preprints OpenAlex has not indexed. */
async function arxivResolved(ref: WorkRef, ctx: Ctx): Promise<Resolution> {
  const entry = await entryById(ctx, ref.id);
  return entry
    ? { record: arxivToCsl(entry), source: "arXiv" }
    : { notFound: `neither OpenAlex nor arXiv knows ${ref.id}` };
}

/** The OpenAlex work for a ref, or undefined when OpenAlex has none. */
export async function openalexWork(ref: WorkRef, client: OpenAlexClient): Promise<OpenAlexWork | undefined> {
  try {
    return await client.work(openalexKey(ref));
  } catch (error) {
    if (error instanceof ToolError && error.code === "ENTITY_NOT_FOUND") return undefined;
    throw error;
  }
}
