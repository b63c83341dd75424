/**
 * search_papers: keyword search over arXiv, OpenAlex or Europe PMC, with a date range, ordering and paging by
 * an opaque cursor (search_cursor.ts) that the output budget re-issues for the papers a cut kept.
 */
import { z } from "../../core/zod.ts";
import { invalidInput, ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { searchPage } from "../../sources/arxiv/client.ts";
import { arxivSearchQuery } from "../../sources/arxiv/search_query.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { worksSearchParams } from "../../sources/openalex/search_query.ts";
import { dateArg, type DayRange, dayRange } from "./date_range.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";
import { cursorInput } from "../../core/envelope.ts";
import { textBlock, warningLines } from "../../render/markdown.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { arxivPaper, citedPaper, isoDay } from "./paper_view.ts";
import { type Paper, paperLines, paperListSchema, partialSuccess, type Warning } from "./schemas.ts";
import { openalexPages } from "./search_pages.ts";
import { searchEuropePmcPapers, searchSourceSchema } from "./search_europepmc.ts";
import { advance, cursorAt, type SearchPosition, startOf, TOOL } from "./search_cursor.ts";

/** `key:value` pairs joined by commas, as OpenAlex's `filter=` takes them (`|` ORs values). */
const FILTER = /^[a-z][a-z_.]*:[^,\s][^,]*(?:,[a-z][a-z_.]*:[^,\s][^,]*)*$/;

/** Both APIs serve the first 10,000 hits of a search at most (OpenAlex basic paging; arXiv slices). */
export const SEARCH_WINDOW = 10_000;

const input = z.object({
  query: z.string().trim().min(2).max(500).describe("Keywords; arXiv ti:/au:/abs: ok"),
  source: searchSourceSchema.describe("Index"),
  from_date: dateArg("From"),
  to_date: dateArg("To"),
  sort: z.enum(["relevance", "date", "citations"]).default("relevance").describe("Order"),
  filter: z.string().max(300).refine((f) => FILTER.test(f), "OpenAlex filter syntax, e.g. is_oa:true,type:review")
    .optional().describe("openalex, e.g. is_oa:true"),
  count: z.number().int().min(1).max(100).default(20).describe("Per page"),
  cursor: cursorInput(),
});

const output = paperListSchema.omit({ total: true }).extend({
  source: searchSourceSchema,
  total_count: z.number().int().describe("How many papers match upstream, across all pages"),
  next_cursor: z.string().optional().describe("Pass as cursor for the next page; absent on the last"),
  query_sent: z.string().describe("arXiv search_query, or OpenAlex search/filter/sort"),
  next: nextCallSchema,
});

type Args = z.output<typeof input>;
type Result = z.input<typeof output>;

export const searchPapers = defineTool({
  name: "search_papers",
  title: "Search papers",
  toolset: "papers",
  description: "Paper search in arXiv (preprints), OpenAlex (any field, citation counts) or Europe PMC (life " +
    "sciences, bioRxiv/medRxiv); paged. Biomedicine: searchPubMedArticles. " +
    'Example: {"query":"CRISPR","source":"arxiv"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { query: "testing", source: "arxiv", count: 5 },
    { query: "english language africa", source: "openalex", from_date: "2015", sort: "citations", count: 5 },
    { query: "cancer", source: "europepmc", count: 3 },
  ],
  run(args, ctx) {
    const start = startOf(args);
    const range = dayRange(args.from_date, args.to_date);
    if (args.source === "europepmc") return searchEuropePmcPapers(args, start, range, ctx);
    return args.source === "arxiv" ? searchArxiv(args, start, range, ctx) : searchOpenAlex(args, start, range, ctx);
  },
  render(r) {
    return textBlock(
      `${r.papers.length} papers of ${r.total_count} (${r.source}).`,
      `query_sent: ${r.query_sent}`,
      warningLines(r.warnings),
      r.papers.flatMap(paperLines),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    );
  },
  paging: {
    argument: "cursor",
    path: "papers",
    keep(r, kept, args) {
      const cursor = cursorAt(args, advance(startOf(args), kept));
      return { ...r, next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) };
    },
  },
});

/** How many papers a page from `start` may hold: `count`, within the first SEARCH_WINDOW hits. */
function pageCount(args: Args, start: SearchPosition): number {
  return Math.max(1, Math.min(args.count, SEARCH_WINDOW - start.o));
}

async function searchArxiv(args: Args, start: SearchPosition, range: DayRange, ctx: ToolContext): Promise<Result> {
  if (args.sort === "citations") {
    throw invalidInput(
      "sort",
      "arXiv cannot order by citations",
      args.sort,
      "Use source=openalex to sort by citations.",
    );
  }
  const query = arxivSearchQuery(args.query, "all", range, isoDay(ctx.clock.now()));
  if (!query) throw invalidInput("query", "has no search words", args.query, "Give at least one keyword.");
  const warnings: Warning[] = [];
  if (args.filter) {
    warnings.push({
      code: "IgnoredArgument",
      message: "filter applies to OpenAlex only; arXiv was searched without it.",
    });
  }
  const sortBy = args.sort === "date" ? "submittedDate" : "relevance";
  const count = pageCount(args, start);
  const feed = await searchPage(ctx, query, sortBy, start.o, count).catch((error) => {
    if (!(error instanceof ToolError) || error.code !== "INVALID_INPUT") throw error;
    throw new ToolError(
      "INVALID_INPUT",
      `${error.message} (search_query ${query})`,
      'Check the query: plain keywords, "quoted phrases", or arXiv syntax with ti:, au:, abs:, all: and ' +
        "AND, OR, ANDNOT.",
      { invalidInput: { field: "query", value: args.query }, cause: error },
    );
  });
  const papers = feed.entries.slice(0, count).map(arxivPaper);
  return finish("arxiv", `search_query=${query}&sortBy=${sortBy}`, papers, feed.totalResults, args, start, warnings);
}

async function searchOpenAlex(args: Args, start: SearchPosition, range: DayRange, ctx: ToolContext): Promise<Result> {
  const params = worksSearchParams({
    query: args.query,
    ...range,
    extraFilter: args.filter,
    sort: args.sort,
  });
  const client = new OpenAlexClient(ctx);
  let total = 0;
  const papers: Paper[] = [];
  for (const page of openalexPages(start.o, pageCount(args, start))) {
    const got = await client.worksPage(params, page.perPage, page.page);
    total = got.total;
    papers.push(...got.works.slice(page.skip, page.skip + page.take).map(citedPaper));
    if (got.works.length < page.perPage) break;
  }
  const sent = Object.entries(params).map(([k, v]) => `${k}=${v}`).join("&");
  logOperatorNotices(ctx, client);
  return finish("openalex", sent, papers, total, args, start, []);
}

function finish(
  source: "arxiv" | "openalex",
  querySent: string,
  papers: Paper[],
  total: number,
  args: Args,
  start: SearchPosition,
  warnings: Warning[],
): Result {
  const partial = partialSuccess(papers, source === "arxiv" ? "arXiv" : "OpenAlex");
  if (partial) warnings.push(partial);
  const end = start.o + papers.length;
  const cursor = papers.length > 0 && end < Math.min(total, SEARCH_WINDOW) ? cursorAt(args, { o: end }) : undefined;
  return {
    source,
    query_sent: querySent,
    papers,
    total_count: total,
    ...(cursor ? { next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}
