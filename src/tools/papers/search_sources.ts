/**
 * One page of hits from one search source, as search_papers and its merged search (search_all.ts) both read it:
 * the papers from a resume position, the source's total, what was sent, and where the next page starts once the
 * first `k` hits were used. PubMed is ESearch then ESummary; Europe PMC pages by cursorMark; OpenAlex and arXiv
 * by offset.
 */
import { invalidInput, ToolError } from "../../core/errors.ts";
import type { ToolContext } from "../tool_def.ts";
import { searchPage } from "../../sources/arxiv/client.ts";
import { arxivSearchQuery } from "../../sources/arxiv/search_query.ts";
import { searchEuropePmc } from "../../sources/europepmc/client.ts";
import { eSearch, eSummaryByIds } from "../../sources/ncbi/pubmed/client.ts";
import type { PubMedSummary } from "../../sources/ncbi/pubmed/types.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { worksSearchParams } from "../../sources/openalex/search_query.ts";
import type { DayRange } from "./date_range.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { arxivPaper, citedPaper, isoDay } from "./paper_view.ts";
import type { Paper } from "./schemas.ts";
import type { SourcePosition } from "./search_cursor.ts";
import { europePmcPaper, europePmcQuery } from "./search_europepmc.ts";
import { openalexPages } from "./search_pages.ts";

/** Both offset APIs serve the first 10,000 hits of a search at most (OpenAlex basic paging; arXiv, PubMed slices). */
export const SEARCH_WINDOW = 10_000;

/** Europe PMC's largest pageSize. */
const EUROPEPMC_MAX_PAGE = 1000;

export type SearchSource = "arxiv" | "openalex" | "europepmc" | "pubmed";

/** What a page of one source asks for. */
export interface SourceQuery {
  query: string;
  sort: "relevance" | "date" | "citations";
  range: DayRange;
  /** OpenAlex filter syntax (OpenAlex only). */
  filter?: string;
  /** true: preprints only; false: no preprints. */
  preprint?: boolean;
}

/** OpenAlex's work type for `preprint` true or false (a posted-content record is type preprint). */
const PREPRINT_FILTER: Record<string, string | undefined> = { true: "type:preprint", false: "type:!preprint" };
/** PubMed's publication type of preprints. */
const PUBMED_PREPRINT: Record<string, string> = { true: " AND preprint[pt]", false: " NOT preprint[pt]" };

export interface SourcePage {
  papers: Paper[];
  /** Hits the source reports for the query. */
  total: number;
  querySent: string;
  /** Where the source's next page starts after the first `used` hits of this one. */
  after(used: number): SourcePosition;
  /** Whether hits remain after the first `used` of this page. */
  more(used: number): boolean;
}

/** The position a source's first page starts at. */
export function firstPosition(source: SearchSource): SourcePosition {
  return source === "europepmc" ? { o: 0, m: "*", s: 0 } : { o: 0 };
}

/** One page of `count` hits of `source` from `start`. */
export function sourcePage(
  source: SearchSource,
  q: SourceQuery,
  start: SourcePosition,
  count: number,
  ctx: ToolContext,
): Promise<SourcePage> {
  const room = Math.max(1, Math.min(count, SEARCH_WINDOW - start.o));
  switch (source) {
    case "arxiv":
      return arxivHits(q, start, room, ctx);
    case "openalex":
      return openalexHits(q, start, room, ctx);
    case "europepmc":
      return europePmcHits(q, start, count, ctx);
    case "pubmed":
      return pubmedHits(q, start, room, ctx);
  }
}

/** An offset source's page: the next one starts `used` further on, within the total and the window. */
function offsetPage(papers: Paper[], total: number, querySent: string, start: SourcePosition): SourcePage {
  const limit = Math.min(total, SEARCH_WINDOW);
  return {
    papers,
    total,
    querySent,
    after: (used) => ({ o: start.o + used }),
    more: (used) => used > 0 ? start.o + used < limit : start.o < limit && papers.length > 0,
  };
}

async function arxivHits(q: SourceQuery, start: SourcePosition, count: number, ctx: ToolContext) {
  if (q.sort === "citations") {
    throw invalidInput("sort", "arXiv cannot order by citations", q.sort, "Use source=openalex to sort by citations.");
  }
  if (q.preprint === false) {
    throw invalidInput(
      "preprint",
      "arXiv holds only preprints",
      false,
      "Leave preprint out for arXiv, or search source=openalex or europepmc with preprint=false.",
    );
  }
  const query = arxivSearchQuery(q.query, "all", q.range, isoDay(ctx.clock.now()));
  if (!query) throw invalidInput("query", "has no search words", q.query, "Give at least one keyword.");
  const sortBy = q.sort === "date" ? "submittedDate" : "relevance";
  const feed = await searchPage(ctx, query, sortBy, start.o, count).catch((error) => {
    if (!(error instanceof ToolError) || error.code !== "INVALID_INPUT") throw error;
    throw new ToolError(
      "INVALID_INPUT",
      `${error.message} (search_query ${query})`,
      'Check the query: plain keywords, "quoted phrases", or arXiv syntax with ti:, au:, abs:, all: and ' +
        "AND, OR, ANDNOT.",
      { invalidInput: { field: "query", value: q.query }, cause: error },
    );
  });
  const papers = feed.entries.slice(0, count).map(arxivPaper);
  return offsetPage(papers, feed.totalResults, `search_query=${query}&sortBy=${sortBy}`, start);
}

async function openalexHits(q: SourceQuery, start: SourcePosition, count: number, ctx: ToolContext) {
  const extraFilter = [q.filter, PREPRINT_FILTER[String(q.preprint)]].filter(Boolean).join(",") || undefined;
  const params = worksSearchParams({ query: q.query, ...q.range, extraFilter, sort: q.sort });
  const client = new OpenAlexClient(ctx);
  let total = 0;
  const papers: Paper[] = [];
  for (const page of openalexPages(start.o, count)) {
    const got = await client.worksPage(params, page.perPage, page.page);
    total = got.total;
    papers.push(...got.works.slice(page.skip, page.skip + page.take).map(citedPaper));
    if (got.works.length < page.perPage) break;
  }
  logOperatorNotices(ctx, client);
  const sent = Object.entries(params).map(([k, v]) => `${k}=${v}`).join("&");
  return offsetPage(papers, total, sent, start);
}

const EUROPEPMC_SORTS = { relevance: undefined, date: "P_PDATE_D desc", citations: "CITED desc" } as const;

/**
 * Europe PMC pages by cursorMark: the upstream page at mark `m` is asked for the `s` hits already shown plus
 * `count`; the next page stays on that mark while hits of it remain, else moves to the next mark. A short upstream
 * page (fewer hits than asked while the listing goes on) is continued from its next mark, so a page holds `count`
 * hits whenever Europe PMC has them.
 */
async function europePmcHits(q: SourceQuery, start: SourcePosition, count: number, ctx: ToolContext) {
  const query = europePmcQuery(q.query, q.range, q.preprint);
  const sort = EUROPEPMC_SORTS[q.sort];
  const segments: { mark: string; skip: number; size: number }[] = [];
  const papers: Paper[] = [];
  let mark = start.m ?? "*";
  let skip = start.s ?? 0;
  let next: string | undefined;
  let total = 0;
  for (let fetches = 0; fetches < 3 && papers.length < count; fetches++) {
    const pageSize = Math.min(skip + count - papers.length, EUROPEPMC_MAX_PAGE);
    const { page } = await searchEuropePmc(ctx, { query, cursor: mark, pageSize, sort });
    total = page.hitCount;
    const got = page.records.slice(skip, pageSize).map(europePmcPaper);
    segments.push({ mark, skip, size: got.length });
    papers.push(...got);
    next = page.nextCursor !== undefined && page.nextCursor !== mark ? page.nextCursor : undefined;
    if (!next || got.length === 0) break;
    mark = next;
    skip = 0;
  }
  return {
    papers,
    total,
    querySent: `query=${query}${sort ? `&sort=${sort}` : ""}`,
    after(used: number): SourcePosition {
      const o = start.o + used;
      let left = used;
      for (const seg of segments) {
        if (left < seg.size) return { o, m: seg.mark, s: seg.skip + left };
        left -= seg.size;
      }
      const last = segments.at(-1)!;
      return next ? { o, m: next, s: 0 } : { o, m: last.mark, s: last.skip + last.size };
    },
    more(used: number): boolean {
      if (used < papers.length) return true;
      return next !== undefined && papers.length > 0 && start.o + used < total;
    },
  };
}

const PUBMED_SORTS = { relevance: "relevance", date: "pub_date" } as const;

/** ESearch for the page's PMIDs, then ESummary for their titles, authors, dates and ids, in ESearch's order. */
async function pubmedHits(q: SourceQuery, start: SourcePosition, count: number, ctx: ToolContext) {
  if (q.sort === "citations") {
    throw invalidInput(
      "sort",
      "PubMed cannot order by citations",
      q.sort,
      "Use source=openalex or source=europepmc to sort by citations.",
    );
  }
  const dated = q.range.from || q.range.to;
  const term = `${q.query}${q.preprint === undefined ? "" : PUBMED_PREPRINT[String(q.preprint)]}`;
  const { value: search } = await eSearch(ctx, {
    term,
    retmax: count,
    retstart: start.o,
    sort: PUBMED_SORTS[q.sort],
    ...(dated
      ? {
        datetype: "pdat",
        mindate: (q.range.from ?? "1800-01-01").replaceAll("-", "/"),
        maxdate: (q.range.to ?? "3000-12-31").replaceAll("-", "/"),
      }
      : {}),
    useHistory: false,
  });
  const ids = search.ids.slice(0, count);
  const summaries = ids.length ? (await eSummaryByIds(ctx, ids)).value : [];
  const byId = new Map(summaries.map((s) => [s.pmid, s]));
  const papers = ids.map((id) => pubmedPaper(byId.get(id) ?? { pmid: id, title: "", authors: [], source: "" }));
  const sent = `term=${term}&sort=${PUBMED_SORTS[q.sort]}${
    dated ? `&datetype=pdat&mindate=${q.range.from ?? ""}&maxdate=${q.range.to ?? ""}` : ""
  }`;
  return offsetPage(papers, search.count, sent, start);
}

/** An ESummary record as a paper: the PMID is its id (fetchArticleDetails and fetch_content take it). */
export function pubmedPaper(s: PubMedSummary): Paper {
  const ids = { pmid: s.pmid, ...(s.pmcid ? { pmcid: s.pmcid } : {}), ...(s.doi ? { doi: s.doi } : {}) };
  return {
    id: s.pmid,
    title: s.title || null,
    authors: s.authors,
    date: s.pubDate ?? s.epubDate ?? null,
    pdf_url: null,
    ...(s.doi ? { doi: s.doi } : {}),
    ...(s.source ? { venue: s.source } : {}),
    ids,
  };
}
