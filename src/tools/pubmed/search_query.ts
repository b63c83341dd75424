/**
 * Turns searchPubMedArticles input into ESearch parameters. The query goes to NCBI as typed: no HTML
 * escaping (which would turn `"` into `&quot;` and break phrase searches); only control characters go.
 */
import { invalidInput } from "../../core/errors.ts";

export const SORT_VALUES = {
  relevance: "relevance",
  pub_date: "pub_date",
  author: "Author",
  journal_name: "JournalName",
};

/** Open ends of a date range: ESearch needs both mindate and maxdate. */
const EARLIEST = "1000";
const LATEST = "3000";

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

function stripControlCharacters(value: string): string {
  return value.replace(CONTROL, " ").trim();
}

/** `(query) AND ("Review"[Publication Type] OR "Clinical Trial"[Publication Type])`, or the query alone. */
export function effectiveTerm(query: string, publicationTypes: readonly string[] = []): string {
  const term = stripControlCharacters(query);
  if (term.length < 3) {
    throw invalidInput("queryTerm", "must have at least 3 characters besides control characters", query);
  }
  const types = publicationTypes.map((t) => stripControlCharacters(t).replace(/["[\]]/g, "")).filter(Boolean);
  if (types.length === 0) return term;
  return `(${term}) AND (${types.map((t) => `"${t}"[Publication Type]`).join(" OR ")})`;
}

export interface DateLimits {
  datetype: string;
  mindate: string;
  maxdate: string;
}

/** ESearch date limits, filling an open end; undefined when no date was given. */
export function dateLimits(
  range: { minDate?: string; maxDate?: string; dateType: string } | undefined,
): DateLimits | undefined {
  if (!range || (!range.minDate && !range.maxDate)) return undefined;
  const limits: DateLimits = {
    datetype: range.dateType,
    mindate: range.minDate ?? EARLIEST,
    maxdate: range.maxDate ?? LATEST,
  };
  if (pad(limits.mindate, "01") > pad(limits.maxdate, "31")) {
    throw invalidInput("dateRange", "minDate is after maxDate", range, "Swap minDate and maxDate, or widen the range.");
  }
  return limits;
}

/** "2020" → "2020/01/01"-style keys so that ranges compare as strings. */
function pad(date: string, fill: string): string {
  const [y, m, d] = date.split("/");
  return [y, m ?? (fill === "01" ? "01" : "12"), d ?? fill].join("/");
}
