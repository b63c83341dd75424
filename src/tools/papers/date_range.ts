/**
 * Publication-date ranges for search_papers: callers write YYYY, YYYY-MM or YYYY-MM-DD; the sources need
 * whole days (OpenAlex `from_publication_date`) or minutes (arXiv `submittedDate:[... TO ...]`).
 */
import { z } from "../../core/zod.ts";
import { invalidInput } from "../../core/errors.ts";

const DATE = /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

/** A YYYY, YYYY-MM or YYYY-MM-DD date (required; {@link dateArg} is the optional form). */
export const dayArg = (which: string) =>
  // refine, not regex: the description already states the format, and tools/list stays shorter.
  z.string().trim().refine((d) => DATE.test(d), "use YYYY, YYYY-MM or YYYY-MM-DD").describe(`${which} YYYY[-MM[-DD]]`);

export const dateArg = (which: string) => dayArg(which).optional().describe(`${which} YYYY[-MM[-DD]]`);

export interface DayRange {
  /** YYYY-MM-DD, first day of the range. */
  from?: string;
  /** YYYY-MM-DD, last day of the range. */
  to?: string;
}

/**
 * Expands partial dates to whole days: a start to its first day, an end to its last.
 * @example dayRange("2020", "2021-02") // { from: "2020-01-01", to: "2021-02-28" }
 */
export function dayRange(from: string | undefined, to: string | undefined): DayRange {
  const range: DayRange = {
    ...(from ? { from: firstDay(from) } : {}),
    ...(to ? { to: lastDay(to) } : {}),
  };
  for (const [field, day] of [["from_date", range.from], ["to_date", range.to]] as const) {
    if (day && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
      throw invalidInput(field, "not a calendar date", day, "Use a real date, e.g. 2021-02-28.");
    }
  }
  if (range.from && range.to && range.from > range.to) {
    throw invalidInput("from_date", `is after to_date (${from} > ${to})`, from, "Swap from_date and to_date.");
  }
  return range;
}

/** The first day of a YYYY[-MM[-DD]] date. */
export function firstDay(date: string): string {
  const [y, m = "01", d = "01"] = date.split("-");
  return `${y}-${m}-${d}`;
}

function lastDay(date: string): string {
  const [y, m = "12", d] = date.split("-");
  if (d) return `${y}-${m}-${d}`;
  const days = new Date(Date.UTC(Number(y), Number(m), 0)).getUTCDate();
  return `${y}-${m}-${String(days).padStart(2, "0")}`;
}
