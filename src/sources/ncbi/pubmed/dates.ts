/**
 * PubMed dates come as Year/Month/Day (months as "Sep" or "09"), Year + Season ("Spring", "Jan-Mar") or a
 * free MedlineDate ("2015 Oct-Dec", "1998 Dec-1999 Jan"). The originals are kept; year, month and day
 * are derived from them where that is unambiguous.
 */
import type { PubMedDate } from "./types.ts";

const MONTHS: Record<string, string> = {
  jan: "01",
  feb: "02",
  mar: "03",
  apr: "04",
  may: "05",
  jun: "06",
  jul: "07",
  aug: "08",
  sep: "09",
  oct: "10",
  nov: "11",
  dec: "12",
};

/** "Sep", "Sept", "September", "9" and "09" → "09"; anything else → undefined. */
export function standardMonth(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d{1,2}$/.test(v)) {
    const n = Number(v);
    return n >= 1 && n <= 12 ? String(n).padStart(2, "0") : undefined;
  }
  return MONTHS[v.slice(0, 3).toLowerCase()];
}

function standardDay(value: string | undefined): string | undefined {
  if (!value || !/^\d{1,2}$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 31 ? String(n).padStart(2, "0") : undefined;
}

export interface DateParts {
  year?: string;
  month?: string;
  day?: string;
  season?: string;
  medlineDate?: string;
}

/** Builds a {@link PubMedDate} from the raw child texts of a PubDate-like element. */
export function pubMedDate(parts: DateParts): PubMedDate {
  const out: PubMedDate = {};
  if (parts.medlineDate) {
    out.medlineDate = parts.medlineDate;
    Object.assign(out, freeDateParts(parts.medlineDate));
  }
  const year = parts.year?.trim();
  if (year && /^\d{4}$/.test(year)) out.year = year;
  const month = standardMonth(parts.month);
  if (month) out.month = month;
  const day = month ? standardDay(parts.day) : undefined;
  if (day) out.day = day;
  if (parts.season) {
    out.season = parts.season;
    // "Jan-Mar" names its first month; "Spring" names none (hemispheres disagree).
    const first = standardMonth(parts.season.split(/[-–/ ]/)[0]);
    if (!out.month && first && /^[A-Za-z]{3}/.test(parts.season)) out.month = first;
  }
  return out;
}

/**
 * Year, month and day from free text such as "2015 Oct-Dec", "1998 Dec-1999 Jan", "2011 Dec 5",
 * "2000 Spring" or "1976-1977": the first year, and the month/day that directly follow it.
 */
export function freeDateParts(text: string): { year?: string; month?: string; day?: string } {
  const m = /^\s*(\d{4})(?:[ -]+([A-Za-z]{3,9}|\d{1,2})\b(?:[ -]+(\d{1,2})\b)?)?/.exec(text);
  if (!m) return {};
  const out: { year?: string; month?: string; day?: string } = { year: m[1] };
  const month = m[2] && !/^\d{4}$/.test(m[2]) ? standardMonth(m[2]) : undefined;
  if (month) {
    out.month = month;
    const day = standardDay(m[3]);
    if (day) out.day = day;
  }
  return out;
}

/** `YYYY-MM-DD`, `YYYY-MM` or `YYYY` from PubMed's "2011 Dec 5"-style dates; undefined when no year. */
export function isoDate(text: string | undefined): string | undefined {
  if (!text?.trim()) return undefined;
  const { year, month, day } = freeDateParts(text);
  if (!year) return undefined;
  return [year, month, month ? day : undefined].filter(Boolean).join("-");
}
