/**
 * Europe PMC `/search` JSON (resultType lite or core) → {@link EuropePmcPage}. Both shapes are read:
 * lite gives `pubType` as one "; "-joined string and `journalTitle`, core gives `pubTypeList`,
 * `journalInfo`, `abstractText` and `commentCorrectionList` (where a retraction notice is linked).
 * Application errors come inside HTTP 200 bodies as `{errCode, errMsg}`.
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import type { EuropePmcPage, EuropePmcRecord } from "./types.ts";

type Json = Record<string, unknown>;

/**
 * @throws ToolError INVALID_INPUT for an errCode answer (Europe PMC's answer to a query it rejects),
 *   UpstreamError (parse) for a body that is not a search answer.
 * @example parseSearch(body, url).records[0].source // "MED"
 */
export function parseSearch(body: string, url: string): EuropePmcPage {
  let data: Json;
  try {
    data = JSON.parse(body);
  } catch {
    throw parseError(url, "Europe PMC sent a search answer that is not JSON");
  }
  if (data.errCode !== undefined || data.errMsg !== undefined) {
    throw new ToolError(
      "INVALID_INPUT",
      `Europe PMC refused the query: ${String(data.errMsg ?? data.errCode)}`,
      'Check the query: keywords, "quoted phrases", AND/OR/NOT, or fields such as TITLE:, AUTH:, SRC:PPR.',
    );
  }
  const list = (data.resultList as Json | undefined)?.result;
  if (typeof data.hitCount !== "number" || !Array.isArray(list)) {
    throw parseError(url, "Europe PMC sent a search answer without hitCount or resultList");
  }
  const next = typeof data.nextCursorMark === "string" ? data.nextCursorMark : undefined;
  return {
    hitCount: data.hitCount,
    ...(next ? { nextCursor: next } : {}),
    records: list.filter((r): r is Json => typeof r === "object" && r !== null).map(parseRecord),
  };
}

export function parseRecord(r: Json): EuropePmcRecord {
  const pubTypes = publicationTypes(r);
  const source = str(r.source) ?? "";
  const preprint = source === "PPR" || pubTypes.some((t) => t.toLowerCase() === "preprint");
  const server = str((r.bookOrReportDetails as Json | undefined)?.publisher);
  const journal = str(((r.journalInfo as Json | undefined)?.journal as Json | undefined)?.title) ??
    str(r.journalTitle);
  const retracted = retraction(r, pubTypes);
  const abstract = str(r.abstractText);
  const cited = Number(r.citedByCount);
  return {
    id: str(r.id) ?? "",
    source,
    ...(str(r.pmid) ? { pmid: str(r.pmid) } : {}),
    ...(str(r.pmcid) ? { pmcid: str(r.pmcid) } : {}),
    ...(str(r.doi) ? { doi: str(r.doi) } : {}),
    title: str(r.title) ? markupText(str(r.title)!) : null,
    authors: authors(r),
    date: str(r.firstPublicationDate) ?? str(r.pubYear) ?? null,
    ...(journal ?? server ? { venue: journal ?? server } : {}),
    ...(abstract ? { abstract: markupText(abstract) } : {}),
    preprint,
    pubTypes,
    ...(retracted ? { retracted } : {}),
    ...(Number.isFinite(cited) && r.citedByCount !== undefined ? { citedByCount: cited } : {}),
    isOpenAccess: r.isOpenAccess === "Y",
    fullTextIds: strings((r.fullTextIdList as Json | undefined)?.fullTextId),
    ...(str(r.license) ? { license: str(r.license) } : {}),
    ...pdfLinks(r),
  };
}

/** The record's PDF links that anyone may read (availability "Open access" or "Free"), Europe PMC's first. */
function pdfLinks(r: Json): Pick<EuropePmcRecord, "pdfUrls"> {
  const list = ((r.fullTextUrlList as Json | undefined)?.fullTextUrl ?? []) as Json[];
  const open = (Array.isArray(list) ? list : []).filter((u) =>
    str(u?.documentStyle) === "pdf" && /^(OA|F)$/.test(str(u?.availabilityCode) ?? "") &&
    /^https:\/\//.test(str(u?.url) ?? "")
  );
  open.sort((a, b) => Number(str(b.site) === "Europe_PMC") - Number(str(a.site) === "Europe_PMC"));
  return open.length ? { pdfUrls: open.map((u) => str(u.url)!) } : {};
}

function publicationTypes(r: Json): string[] {
  const list = strings((r.pubTypeList as Json | undefined)?.pubType);
  if (list.length) return list;
  return (str(r.pubType) ?? "").split(";").map((t) => t.trim()).filter(Boolean);
}

/** "Retracted Publication" as a type, or a "Retraction in" link (its notice). */
function retraction(r: Json, pubTypes: string[]): { notice?: string } | undefined {
  const links = (r.commentCorrectionList as Json | undefined)?.commentCorrection;
  const notice = (Array.isArray(links) ? links : []).find((c: Json) => /^retraction in$/i.test(str(c?.type) ?? ""));
  const typed = pubTypes.some((t) => /^retracted publication$/i.test(t));
  if (!notice && !typed) return undefined;
  if (!notice) return {};
  const id = [str(notice.source), str(notice.id)].filter(Boolean).join(":");
  const reference = str(notice.reference);
  return { notice: [id, reference].filter(Boolean).join(" ") || undefined };
}

function authors(r: Json): string[] {
  const list = (r.authorList as Json | undefined)?.author;
  if (Array.isArray(list)) {
    const names = list.map((a: Json) => str(a?.fullName) ?? str(a?.collectiveName)).filter((n): n is string => !!n);
    if (names.length) return names;
  }
  return (str(r.authorString) ?? "").replace(/\.$/, "").split(", ").map((a) => a.trim()).filter(Boolean);
}

/** Titles and abstracts carry HTML (`<i>`, `<h4>`, `<sup>`) and a few entities: plain text. */
export function markupText(text: string): string {
  return text.replace(/<\/?(p|h\d|div)\b[^>]*>/gi, "\n").replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&").replace(/[ \t]+/g, " ").replace(/ ?\n ?/g, "\n").replace(/\n{2,}/g, "\n").trim();
}

function str(v: unknown): string | undefined {
  if (typeof v === "number") return String(v);
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(str).filter((s): s is string => !!s) : [];
}

function parseError(url: string, message: string): UpstreamError {
  return new UpstreamError({ kind: "parse", upstream: "europepmc", url, message: `${message} (${url})` });
}
