/**
 * CSL-JSON items: the one record every citation format is made from. Each source (Crossref, PubMed,
 * OpenAlex, arXiv) maps into this shape once (./from/); BibTeX, RIS and the citeproc-js styles read it.
 * Field names follow the CSL 1.0.2 schema; ids CSL has no variable for live in `custom`.
 */

export type CslType =
  | "article"
  | "article-journal"
  | "book"
  | "chapter"
  | "dataset"
  | "entry-encyclopedia"
  | "paper-conference"
  | "post-weblog"
  | "report"
  | "review"
  | "standard"
  | "thesis";

export interface CslName {
  family?: string;
  given?: string;
  /** An organisation, or a name that cannot be split. */
  literal?: string;
}

export interface CslDate {
  "date-parts"?: number[][];
  /** A season or range the record states instead of one month ("Jan-Mar", "Spring"). */
  season?: string;
}

export interface CslItem {
  /** The BibTeX key too: first author's surname, year and the record's id. */
  id: string;
  type: CslType;
  /** "preprint" for a posted preprint, "PhD thesis" for a dissertation. */
  genre?: string;
  title: string;
  author?: CslName[];
  editor?: CslName[];
  "container-title"?: string;
  "container-title-short"?: string;
  "event-title"?: string;
  "event-place"?: string;
  volume?: string;
  issue?: string;
  /** Page range, hyphen-separated and written in full ("209-226"). */
  page?: string;
  /** An article number (Crossref `article-number`), a report number, or an arXiv id ("arXiv:2104.12255"). */
  number?: string;
  edition?: string;
  issued?: CslDate;
  publisher?: string;
  "publisher-place"?: string;
  ISSN?: string;
  ISBN?: string;
  DOI?: string;
  PMID?: string;
  PMCID?: string;
  /** The record's own page, given only when it has no DOI. */
  URL?: string;
  language?: string;
  abstract?: string;
  keyword?: string;
  /** Where the record came from: "PubMed", "Crossref", "OpenAlex", "arXiv". */
  source?: string;
  custom?: { arxiv?: string; openalex?: string };
}

/** C0 and C1 control characters except tab and newline, and DEL. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text as a citation may hold it: control characters dropped, whitespace runs (newlines included) one space.
 * Every mapping passes its strings through this, so no control character reaches the engine or an export.
 */
export function clean(value: string | undefined): string | undefined {
  const v = value?.replace(CONTROL, "").replace(/\s+/g, " ").trim();
  return v ? v : undefined;
}

/** The item with undefined, empty strings and empty lists removed, so the JSON holds only what is known. */
export function compactItem(item: CslItem): CslItem {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) continue;
    if (k === "custom" && Object.values(v as object).every((x) => x === undefined)) continue;
    out[k] = k === "custom" ? Object.fromEntries(Object.entries(v as object).filter(([, x]) => x !== undefined)) : v;
  }
  return out as unknown as CslItem;
}

/** `2008-02-29` / `2008-02` / `2008` → CSL date parts; undefined for anything without a year. */
export function isoToCslDate(value: string | undefined): CslDate | undefined {
  const parts = (value ?? "").split("-").map((p) => Number(p));
  if (!parts.length || !Number.isInteger(parts[0]) || parts[0] <= 0) return undefined;
  const valid = [parts[0]];
  for (const p of parts.slice(1, 3)) {
    if (!Number.isInteger(p) || p <= 0) break;
    valid.push(p);
  }
  return { "date-parts": [valid] };
}

/** The year of a CSL date, for keys. */
export function cslYear(date: CslDate | undefined): string {
  const y = date?.["date-parts"]?.[0]?.[0];
  return y ? String(y) : "";
}

/**
 * The stable citation key: the first author's surname (ASCII letters and digits), the year and the record's
 * id (PMID, else arXiv id, OpenAlex W id or DOI), e.g. `Ritz2024_38147649`. The same record always gets
 * the same key.
 */
export function citationKey(
  authors: readonly CslName[] | undefined,
  date: CslDate | undefined,
  ids: { pmid?: string; arxiv?: string; openalex?: string; doi?: string },
): string {
  const first = authors?.[0];
  const fallback = ids.pmid ? "PMID" : "Anon";
  const name = first?.family ?? first?.literal?.split(/\s+/).find((w) => w.length > 3) ?? fallback;
  const ascii = name.normalize("NFKD").replace(/[^A-Za-z0-9]/g, "");
  const id = (ids.pmid ?? ids.arxiv ?? ids.openalex ?? ids.doi ?? "").replace(/[^A-Za-z0-9.]/g, "");
  return `${ascii || fallback}${cslYear(date)}_${id}`;
}

/** "Lisa J. Green" → family Green, given Lisa J.; a one-word name is a family name. */
export function splitDisplayName(name: string): CslName {
  const words = clean(name)?.split(" ") ?? [];
  if (words.length <= 1) return { family: words[0] ?? "" };
  return { family: words[words.length - 1], given: words.slice(0, -1).join(" ") };
}
