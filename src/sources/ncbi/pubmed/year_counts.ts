/**
 * PubMed records per publication year for a query: one ESearch `rettype=count` per year (`datetype=pdat`,
 * `mindate = maxdate = year`), each its own cached, paced pipeline request, so a later range that overlaps
 * asks only for the years it has not seen. Counts of past years change little: they are kept a day.
 */
import { type ESearchResult, parseESearch } from "../eutils/parse_esearch.ts";
import { fetchEutils } from "../eutils/request.ts";
import type { EutilsContext } from "./client.ts";

const PAST_YEAR_TTL_MS = 24 * 60 * 60_000;

export interface YearCount {
  year: number;
  count: number;
}

/** The count of one year; NCBI's warnings (phrase not found, …) come back with it. */
export async function pubmedYearCount(
  ctx: EutilsContext & { clock: { now(): number } },
  term: string,
  year: number,
): Promise<{ count: number; warnings: string[] }> {
  const params = {
    db: "pubmed",
    term,
    rettype: "count",
    datetype: "pdat",
    mindate: year,
    maxdate: year,
    retmode: "xml",
  };
  const past = year < new Date(ctx.clock.now()).getUTCFullYear();
  const fetched = await fetchEutils<ESearchResult>(
    ctx.upstream,
    { path: "/esearch.fcgi", params, signal: ctx.signal, ...(past ? { ttlMs: PAST_YEAR_TTL_MS } : {}) },
    parseESearch,
    "INVALID_INPUT",
  );
  return { count: fetched.value.count, warnings: fetched.value.warnings };
}

/**
 * Every year from `from` to `to`, requested together (the pipeline paces them at NCBI's rate); `onYear` is
 * told each time one more year is in, for progress.
 */
export async function pubmedYearCounts(
  ctx: EutilsContext & { clock: { now(): number } },
  term: string,
  from: number,
  to: number,
  onYear: (done: number, total: number) => Promise<void>,
): Promise<{ counts: YearCount[]; warnings: string[] }> {
  const years = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  let done = 0;
  const answers = await Promise.all(years.map(async (year) => {
    const answer = await pubmedYearCount(ctx, term, year);
    await onYear(++done, years.length);
    return answer;
  }));
  return {
    counts: years.map((year, i) => ({ year, count: answers[i].count })),
    warnings: [...new Set(answers.flatMap((a) => a.warnings))],
  };
}
