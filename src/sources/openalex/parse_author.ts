/**
 * OpenAlex author records (`/authors` lists and `/authors/{id}`), both schemas seen in recorded answers: the
 * current one (`last_known_institutions[]`, `topics[]`) and the older one (`last_known_institution`,
 * `x_concepts[]`). A result that is not an author record (no A id) is skipped and counted, never invented.
 */
import { shortId } from "./ids.ts";

type Json = Record<string, unknown>;

export interface OpenAlexAuthor {
  /** Short id: `A5043579160`. */
  id: string;
  name: string;
  /** Bare ORCID (`0000-0001-5473-2109`), when OpenAlex links one. */
  orcid?: string;
  /** Other spellings OpenAlex merged into this profile. */
  alternatives: string[];
  /** The institutions of the author's latest works, current first as OpenAlex lists them. */
  institutions: { id: string; name: string; country?: string }[];
  worksCount?: number;
  citedByCount?: number;
  hIndex?: number;
  i10Index?: number;
  /** Main topics (or, in the older schema, concepts), most frequent first. */
  topics: { id?: string; name: string; works?: number }[];
}

/** Authors of a list body's `results`, with how many results were not author records. */
export function parseAuthors(results: Json[]): { authors: OpenAlexAuthor[]; unreadable: number } {
  const authors: OpenAlexAuthor[] = [];
  let unreadable = 0;
  for (const raw of results) {
    const author = parseAuthor(raw);
    if (author) authors.push(author);
    else unreadable++;
  }
  return { authors, unreadable };
}

export function parseAuthor(raw: Json): OpenAlexAuthor | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const id = normalizeAuthorId(String(raw.id ?? ""));
  const name = str(raw.display_name);
  if (!id || !name) return undefined;
  const ids = obj(raw.ids);
  const orcid = bareOrcid(str(raw.orcid) ?? str(ids?.orcid));
  const stats = obj(raw.summary_stats);
  const lastKnown = Array.isArray(raw.last_known_institutions)
    ? raw.last_known_institutions
    : raw.last_known_institution
    ? [raw.last_known_institution]
    : [];
  const institutions = lastKnown.map(obj).flatMap((i) => {
    const iname = str(i?.display_name);
    if (!i || !iname) return [];
    const country = str(i.country_code);
    return [{ id: shortId(String(i.id ?? "")), name: iname, ...(country ? { country } : {}) }];
  });
  const topicList = Array.isArray(raw.topics) && raw.topics.length ? raw.topics : raw.x_concepts;
  const topics = (Array.isArray(topicList) ? topicList : []).map(obj).flatMap((t) => {
    const tname = str(t?.display_name);
    if (!t || !tname) return [];
    const works = num(t.count);
    const tid = str(t.id);
    return [{ ...(tid ? { id: shortId(tid) } : {}), name: tname, ...(works !== undefined ? { works } : {}) }];
  });
  const alternatives = (Array.isArray(raw.display_name_alternatives) ? raw.display_name_alternatives : [])
    .filter((a): a is string => typeof a === "string" && a.trim() !== "" && a !== name);
  return {
    id,
    name,
    ...(orcid ? { orcid } : {}),
    alternatives,
    institutions,
    ...opt("worksCount", num(raw.works_count)),
    ...opt("citedByCount", num(raw.cited_by_count)),
    ...opt("hIndex", num(stats?.h_index)),
    ...opt("i10Index", num(stats?.i10_index)),
    topics,
  };
}

/** `A5043579160` (any case, URL form accepted) or undefined. */
export function normalizeAuthorId(raw: string): string | undefined {
  const id = shortId(raw);
  return /^a\d+$/i.test(id) ? id.toUpperCase() : undefined;
}

/** `0000-0001-5473-2109` from a bare ORCID or its URL (the last character may be X), else undefined. */
export function bareOrcid(raw: string | undefined): string | undefined {
  const m = /(?:^|orcid\.org\/)(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$/i.exec(raw?.trim() ?? "");
  return m ? m[1].toUpperCase() : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function obj(v: unknown): Json | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Json : undefined;
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
