/**
 * OpenAlex Work JSON → {@link OpenAlexWork}. Tolerates every odd record in the corpus: null titles and
 * abstracts, authorships without an author object, datasets and figure DOIs, `best_oa_location` null.
 */
import { UpstreamError } from "../../core/errors.ts";
import { normalizeArxivId } from "../arxiv/ids.ts";
import { doiFromUrl } from "../doi_url.ts";
import { parseJob } from "../parse_job.ts";
import { shortId } from "./ids.ts";
import { parseList } from "./parse_list.ts";
import type { OpenAlexListMeta, OpenAlexLocation, OpenAlexWork } from "./types.ts";

type Json = Record<string, unknown>;

/**
 * A `/works` list body → its meta and works (a page of 100 full records can run to 16 MB). A result that
 * is not a JSON object cannot be a work: it is counted in `unreadable`, never turned into an empty one.
 */
export function parseWorksList(
  body: string,
  url: string,
): { meta: OpenAlexListMeta; works: OpenAlexWork[]; unreadable?: number } {
  const list = parseList(body, url);
  const records = list.results.filter(isObject);
  const unreadable = list.results.length - records.length;
  return { meta: list.meta, works: records.map(parseWork), ...(unreadable ? { unreadable } : {}) };
}

/** {@link parseWorksList} as a parse job (see parse_off_thread.ts). */
export const worksListJob = parseJob("openalex-works", "openalex", parseWorksList);

/**
 * One work's JSON body (`/works/{id}`). A body that is not JSON (cut short, garbled, an HTML or
 * rate-limit page, empty) or JSON that is not a work (no object, no W id) is an UpstreamError of kind
 * "parse", never a TypeError or an id-less work.
 */
export function parseWorkBody(body: string, url: string): OpenAlexWork {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (cause) {
    throw workParseError(url, `OpenAlex sent a body that is not JSON (${JSON.stringify(body.slice(0, 80))})`, cause);
  }
  if (!isObject(json)) throw workParseError(url, "OpenAlex sent JSON that is not a work record");
  const work = parseWork(json);
  if (!/^W\d+$/i.test(work.id)) throw workParseError(url, "OpenAlex sent a work record without a W id");
  return work;
}

/** {@link parseWorkBody} as a parse job: a work with thousands of authors runs to megabytes. */
export const workJob = parseJob("openalex-work", "openalex", parseWorkBody);

export function parseWork(raw: Json): OpenAlexWork {
  const best = location(raw.best_oa_location);
  const all = Array.isArray(raw.locations) ? raw.locations.map(location).filter((l) => l !== undefined) : [];
  const primary = location(raw.primary_location);
  const oa = dedupe([best, ...all, primary].filter((l): l is OpenAlexLocation => !!l?.isOa));
  const openAccess = (raw.open_access ?? {}) as Json;
  return {
    id: shortId(str(raw.id) ?? ""),
    title: clean(str(raw.display_name) ?? str(raw.title)),
    authors: authors(raw.authorships),
    publicationDate: str(raw.publication_date),
    doi: doiOrUndefined(str(raw.doi)),
    type: str(raw.type),
    citedByCount: typeof raw.cited_by_count === "number" ? raw.cited_by_count : undefined,
    isOa: openAccess.is_oa === true || oa.length > 0,
    pdfUrl: oa.find((l) => l.pdfUrl)?.pdfUrl,
    oaLocations: oa,
    abstract: abstractFrom(raw.abstract_inverted_index),
    arxivId: arxivIdOf([best, primary, ...all], str(raw.doi)),
    venue: primary?.sourceName,
    ...externalIds(raw),
  };
}

/** PMID, PMCID (`PMC…`), `is_retracted` and `biblio`, each only when the answer carries it. */
function externalIds(raw: Json): Pick<OpenAlexWork, "pmid" | "pmcid" | "isRetracted" | "biblio"> {
  const ids = (raw.ids ?? {}) as Json;
  const pmid = /(\d+)\/?$/.exec(str(ids.pmid) ?? "")?.[1];
  const pmcNumber = /(?:PMC)?(\d+)\/?$/i.exec(str(ids.pmcid) ?? "")?.[1];
  const b = (raw.biblio ?? undefined) as Json | undefined;
  const biblio = b
    ? Object.fromEntries(
      [["volume", b.volume], ["issue", b.issue], ["firstPage", b.first_page], ["lastPage", b.last_page]]
        .filter(([, v]) => str(v)),
    )
    : undefined;
  return {
    ...(pmid ? { pmid } : {}),
    ...(pmcNumber ? { pmcid: `PMC${pmcNumber}` } : {}),
    ...(typeof raw.is_retracted === "boolean" ? { isRetracted: raw.is_retracted } : {}),
    ...(biblio && Object.keys(biblio).length ? { biblio } : {}),
  };
}

/**
 * Rebuilds the abstract from `{word: [positions]}`; positions may have gaps, which are skipped.
 * @example abstractFrom({ Hello: [0], world: [1] }) // "Hello world"
 */
export function abstractFrom(index: unknown): string | undefined {
  if (!index || typeof index !== "object") return undefined;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index as Record<string, unknown>)) {
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (Number.isInteger(p) && p >= 0 && p < 1_000_000) words[p] = word;
  }
  const text = words.filter((w) => w !== undefined).join(" ").trim();
  return text || undefined;
}

function authors(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((a: Json) => clean(str((a?.author as Json | undefined)?.display_name) ?? str(a?.raw_author_name)))
    .filter((n): n is string => !!n);
}

function location(value: unknown): OpenAlexLocation | undefined {
  if (!value || typeof value !== "object") return undefined;
  const l = value as Json;
  const source = (l.source ?? undefined) as Json | undefined;
  return {
    landingPageUrl: str(l.landing_page_url),
    pdfUrl: str(l.pdf_url),
    isOa: l.is_oa === true,
    version: str(l.version),
    license: str(l.license),
    sourceName: str(source?.display_name),
  };
}

function dedupe(locations: OpenAlexLocation[]): OpenAlexLocation[] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = `${l.pdfUrl ?? ""} ${l.landingPageUrl ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function arxivIdOf(locations: (OpenAlexLocation | undefined)[], doi: string | undefined): string | undefined {
  for (const l of locations) {
    for (const url of [l?.landingPageUrl, l?.pdfUrl]) {
      if (url && /arxiv\.org\/(abs|pdf)\//i.test(url)) {
        const id = normalizeArxivId(url);
        if (id) return id;
      }
    }
  }
  const fromDoi = /10\.48550\/arxiv\.(.+)$/i.exec(doi ?? "");
  return fromDoi ? normalizeArxivId(fromDoi[1]) : undefined;
}

function doiOrUndefined(value: string | undefined): string | undefined {
  return value ? doiFromUrl(value) || undefined : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function workParseError(url: string, message: string, cause?: unknown): UpstreamError {
  return new UpstreamError({ kind: "parse", upstream: "openalex", url, message: `${message} for ${url}`, cause });
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function clean(value: string | undefined): string | undefined {
  const v = value?.replace(/\s+/g, " ").trim();
  return v || undefined;
}
