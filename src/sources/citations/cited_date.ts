/**
 * The publication date a citation may state. PubMed derives a month from a season range ("Jan-Mar") or a
 * free MedlineDate ("2015 Oct-Dec", "1998 Dec-1999 Jan") for sorting; a reference must not: it keeps the
 * range or season as text and states a month (and day) only where the record gives exactly one.
 */
import type { PubMedDate } from "../ncbi/pubmed/types.ts";

export interface CitedDate {
  year?: string;
  /** "01"-"12", only when the record names a single month. */
  month?: string;
  day?: string;
  /** The season or range as the record writes it ("Jan-Mar", "Spring", "Oct-Dec", "Dec-1999 Jan"). */
  season?: string;
}

/**
 * @example citedDate({ year: "2013", month: "01", season: "Jan-Mar" }) // { year: "2013", season: "Jan-Mar" }
 * @example citedDate({ year: "2011", month: "12", day: "05", medlineDate: "2011 Dec 5" }) // month and day kept
 */
export function citedDate(date: PubMedDate): CitedDate {
  const { year } = date;
  if (date.season?.trim()) return { year, season: date.season.trim() };
  const rest = date.medlineDate?.replace(/^\s*\d{4}\b\s*/, "").trim();
  if (rest && !/^[A-Za-z]{3,9}(\s+\d{1,2})?$/.test(rest)) {
    // A range or season ("Oct-Dec", "Spring", "Dec-1999 Jan"); a bare year range ("-1977") names no month.
    return /[A-Za-z]/.test(rest) ? { year, season: rest } : { year };
  }
  return {
    year,
    ...(date.month ? { month: date.month } : {}),
    ...(date.month && date.day ? { day: date.day } : {}),
  };
}
