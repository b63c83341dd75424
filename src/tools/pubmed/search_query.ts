/**
 * Turns searchPubMedArticles input into one ESearch term. The query goes to NCBI as typed: no HTML
 * escaping (which would turn `"` into `&quot;` and break phrase searches); only control characters go.
 * Filters are AND-ed onto it with PubMed's field tags, so NCBI's query translation shows every one of them:
 * `"Smith J"[au]`, `"Nature"[ta]`, `"Asthma"[mh]`, `"Review"[pt]` (OR-ed), `english[la]`,
 * `free full text[sb]`, `("2020/01/01"[dp] : "2021/12/31"[dp])`.
 */
import { invalidInput } from "../../core/errors.ts";

export const SORT_VALUES = {
  relevance: "relevance",
  pub_date: "pub_date",
  author: "Author",
  journal_name: "JournalName",
};

/** Open ends of a date range. */
const EARLIEST = "1000";
const LATEST = "3000";

/** Date field tag per ESearch datetype: publication, Entrez (added to PubMed), modification. */
const DATE_TAGS: Record<string, string> = { pdat: "dp", edat: "edat", mdat: "lr" };

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

function stripControlCharacters(value: string): string {
  return value.replace(CONTROL, " ").trim();
}

/** A filter value inside quotes: quotes and brackets would end the phrase or the tag early. */
function quoted(value: string): string {
  return `"${stripControlCharacters(value).replace(/["[\]]/g, "").replace(/\s+/g, " ").trim()}"`;
}

export interface DateRange {
  minDate?: string;
  maxDate?: string;
  dateType: string;
}

export interface SearchFilters {
  publicationTypes?: readonly string[];
  authors?: readonly string[];
  journal?: string;
  meshTerms?: readonly string[];
  language?: string;
  freeFullText?: boolean;
  dateRange?: DateRange;
}

/**
 * `(query) AND filter AND ...`, or the query alone when no filter is set.
 * @example effectiveTerm("asthma", { authors: ["Smith J"], freeFullText: true })
 *   // '(asthma) AND "Smith J"[au] AND free full text[sb]'
 */
export function effectiveTerm(query: string, filters: SearchFilters = {}): string {
  const term = stripControlCharacters(query);
  if (term.length < 3) {
    throw invalidInput("queryTerm", "must have at least 3 characters besides control characters", query);
  }
  const clauses = [
    ...(filters.authors ?? []).map((a) => tagged(a, "au")),
    tagged(filters.journal, "ta"),
    ...(filters.meshTerms ?? []).map((m) => tagged(m, "mh")),
    anyOf((filters.publicationTypes ?? []).map((t) => tagged(t, "pt"))),
    filters.language ? `${stripControlCharacters(filters.language).toLowerCase().replace(/[^a-z ]/g, "")}[la]` : "",
    filters.freeFullText ? "free full text[sb]" : "",
    dateClause(filters.dateRange),
  ].filter((c) => c && !c.startsWith('""'));
  return clauses.length ? `(${term}) AND ${clauses.join(" AND ")}` : term;
}

function tagged(value: string | undefined, tag: string): string {
  return value === undefined ? "" : `${quoted(value)}[${tag}]`;
}

function anyOf(clauses: string[]): string {
  const real = clauses.filter((c) => !c.startsWith('""'));
  return real.length > 1 ? `(${real.join(" OR ")})` : real[0] ?? "";
}

/** The range with an open end filled (both ends are needed); undefined when no date was given. */
export function filledRange(range: DateRange | undefined): Required<DateRange> | undefined {
  if (!range || (!range.minDate && !range.maxDate)) return undefined;
  const filled = { minDate: range.minDate ?? EARLIEST, maxDate: range.maxDate ?? LATEST, dateType: range.dateType };
  if (pad(filled.minDate, "01") > pad(filled.maxDate, "31")) {
    throw invalidInput("dateRange", "minDate is after maxDate", range, "Swap minDate and maxDate, or widen the range.");
  }
  return filled;
}

/** `("2020/01/01"[dp] : "2021/12/31"[dp])`; empty when no date was given. */
export function dateClause(range: DateRange | undefined): string {
  const filled = filledRange(range);
  if (!filled) return "";
  const tag = DATE_TAGS[filled.dateType] ?? "dp";
  return `("${filled.minDate}"[${tag}] : "${filled.maxDate}"[${tag}])`;
}

/** "2020" → "2020/01/01"-style keys so that ranges compare as strings. */
function pad(date: string, fill: string): string {
  const [y, m, d] = date.split("/");
  return [y, m ?? (fill === "01" ? "01" : "12"), d ?? fill].join("/");
}
