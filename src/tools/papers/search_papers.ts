/**
 * search_papers: keyword search over arXiv, OpenAlex, Europe PMC or PubMed — or all four at once, merged without
 * duplicates (search_all.ts) — with a date range, ordering, an OpenAlex author filter, and paging by an opaque
 * cursor (search_cursor.ts) that the output budget re-issues for the papers a cut kept.
 */
import { z } from "../../core/zod.ts";
import { invalidInput } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { dateArg, dayRange } from "./date_range.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";
import { DEFAULT_OUTPUT_MAX_CHARS } from "../../core/output_budget.ts";
import { textBlock, warningLines } from "../../render/markdown.ts";
import { type Paper, paperLines, paperListSchema, partialSuccess, type Warning } from "./schemas.ts";
import { sourceSchema } from "./schemas.ts";
import { advance, cursorAt, type SearchPosition, startOf, TOOL } from "./search_cursor.ts";
import { firstPosition, type SearchSource, sourcePage, type SourceQuery } from "./search_sources.ts";
import { mergedPage, rememberShown } from "./search_all.ts";
import { authorFilter } from "./author_ref.ts";

/** `key:value` pairs joined by commas, as OpenAlex's `filter=` takes them (`|` ORs values). */
const FILTER = /^[a-z][a-z_.]*:[^,\s][^,]*(?:,[a-z][a-z_.]*:[^,\s][^,]*)*$/;

/** search_papers' sources: one index, or `all` of them merged. */
export const searchSourceSchema = z.enum([...sourceSchema.options, "europepmc", "pubmed", "all"]);

const NAMES: Record<SearchSource, string> = {
  arxiv: "arXiv",
  openalex: "OpenAlex",
  europepmc: "Europe PMC",
  pubmed: "PubMed",
};

const input = z.object({
  query: z.string().trim().min(2).max(500).optional().describe("Keywords; arXiv ti:/au:/abs: ok"),
  source: searchSourceSchema.describe("Index"),
  from_date: dateArg("From"),
  to_date: dateArg("To"),
  sort: z.enum(["relevance", "date", "citations"]).default("relevance").describe("Order"),
  filter: z.string().max(300).optional().describe("openalex, e.g. is_oa:true"),
  preprint: z.boolean().optional().describe("true: preprints only; false: none"),
  author: z.string().trim().min(1).max(60).optional().describe("openalex: A id or ORCID"),
  count: z.number().int().min(1).max(100).default(20).describe("Per page"),
  // Longer than other tools' cursors: a merged search remembers the papers it showed.
  cursor: z.string().max(8192).optional().describe("From next_cursor"),
});

const output = paperListSchema.omit({ total: true }).extend({
  source: searchSourceSchema,
  total_count: z.number().int().describe("Matches upstream across pages (all: summed over sources)"),
  next_cursor: z.string().optional().describe("cursor of the next page"),
  query_sent: z.string().describe("What each source was asked"),
  next: nextCallSchema,
});

type Args = z.output<typeof input>;
type Result = z.input<typeof output>;

export const searchPapers = defineTool({
  name: "search_papers",
  title: "Search papers",
  toolset: "papers",
  description: "Papers from arXiv, OpenAlex (citations, author works), Europe PMC, PubMed or all (merged by " +
    "DOI/PMID/PMCID/arXiv id, ranks interleaved); paged. " +
    'Example: {"query":"CRISPR","source":"all"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { query: "testing", source: "arxiv", count: 5 },
    { query: "english language africa", source: "openalex", from_date: "2015", sort: "citations", count: 5 },
    { query: "cancer", source: "europepmc", count: 3 },
    { query: "malaria vaccine", source: "all", count: 10 },
    { source: "openalex", author: "A5043579160", sort: "citations", count: 5 },
  ],
  run(args, ctx) {
    if (args.filter !== undefined && !FILTER.test(args.filter)) {
      throw invalidInput(
        "filter",
        "is not OpenAlex filter syntax (key:value pairs joined by commas)",
        args.filter,
        /preprint/i.test(args.filter)
          ? "For preprints only pass preprint:true (every source), not filter."
          : "Write key:value pairs, e.g. is_oa:true,type:review.",
      );
    }
    const start = startOf(args);
    const q = sourceQuery(args);
    return args.source === "all" ? searchAll(args, q, start, ctx) : searchOne(args.source, args, q, start, ctx);
  },
  render,
  paging: {
    argument: "cursor",
    path: "papers",
    keep(r, kept, args) {
      const start = startOf(args);
      // A merged page resumes each source where it started and skips what was shown (keys in the cursor):
      // nothing is lost, nothing repeats. A single source resumes right after the kept papers.
      const position: SearchPosition = args.source === "all"
        ? { o: start.o + kept, ...(start.p ? { p: start.p } : {}), ...keysAfter(start, r.papers.slice(0, kept)) }
        : advance(start, kept);
      const cursor = cursorAt(args, position);
      return { ...r, next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) };
    },
  },
});

/** What every source is asked: the words, the order, the whole days of the range, OpenAlex filters. */
function sourceQuery(args: Args): SourceQuery {
  const range = dayRange(args.from_date, args.to_date);
  if (!args.query && !args.author) {
    throw invalidInput("query", "is missing", args.query, "Give keywords in query, or an author (find_author's A id).");
  }
  if (args.author && args.source !== "openalex") {
    throw invalidInput(
      "author",
      `filters OpenAlex only, not ${args.source}`,
      args.author,
      "Call again with source=openalex.",
    );
  }
  const filters = [args.author ? authorFilter(args.author) : "", args.filter ?? ""].filter(Boolean).join(",");
  return {
    query: args.query ?? "",
    sort: args.sort,
    range,
    ...(filters ? { filter: filters } : {}),
    ...(args.preprint !== undefined ? { preprint: args.preprint } : {}),
  };
}

async function searchOne(
  source: SearchSource,
  args: Args,
  q: SourceQuery,
  start: SearchPosition,
  ctx: ToolContext,
): Promise<Result> {
  const from = start.o === 0 && start.m === undefined ? firstPosition(source) : start;
  const page = await sourcePage(source, q, from, args.count, ctx);
  const warnings: Warning[] = [];
  if (args.filter && source !== "openalex") {
    warnings.push({
      code: "IgnoredArgument",
      message: source === "europepmc"
        ? "filter applies to OpenAlex only; for Europe PMC put fields in the query (e.g. SRC:PPR, OPEN_ACCESS:y)."
        : `filter applies to OpenAlex only; ${NAMES[source]} was searched without it.`,
    });
  }
  const partial = partialSuccess(page.papers, NAMES[source]);
  if (partial) warnings.push(partial);
  return fitted(page.papers.length, ctx, (n) => {
    const cursor = page.more(n) ? cursorAt(args, page.after(n)) : undefined;
    return result(source, page.querySent, page.papers.slice(0, n), page.total, args, cursor, warnings);
  });
}

async function searchAll(args: Args, q: SourceQuery, start: SearchPosition, ctx: ToolContext): Promise<Result> {
  const page = await mergedPage(q, start, args.count, ctx);
  return fitted(page.papers.length, ctx, (n) => {
    const cursor = page.more(n) ? cursorAt(args, page.positionAfter(n)) : undefined;
    return result("all", page.querySent, page.papers.slice(0, n), page.total, args, cursor, page.warnings);
  });
}

/**
 * The page with as many of its `n` papers as fit the output budget, chosen before the budget would cut it: the
 * page's own positions then say where each source resumes (a Europe PMC page spanning two upstream pages, a
 * merged page's sources and whose turn is next), which a cut after the fact could not know.
 */
function fitted(n: number, ctx: ToolContext, build: (n: number) => Result): Result {
  const budget = (ctx.outputBudget ?? DEFAULT_OUTPUT_MAX_CHARS) - FIT_MARGIN;
  if (n <= 1 || render(build(n)).length <= budget) return build(n);
  let lo = 1;
  let hi = n - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(build(mid)).length <= budget) lo = mid;
    else hi = mid - 1;
  }
  return build(lo);
}

/** Room left under the budget when a merged page is sized (the renderer's own rounding). */
const FIT_MARGIN = 200;

function render(r: Result): string {
  return textBlock(
    `${r.papers.length} papers of ${r.total_count} (${r.source}).`,
    `query_sent: ${r.query_sent}`,
    warningLines(r.warnings),
    r.papers.flatMap(paperLines),
    "",
    nextCallLine(r.next, "cursor") ?? "last page",
  );
}

function result(
  source: Result["source"],
  querySent: string,
  papers: Paper[],
  total: number,
  args: Args,
  cursor: string | undefined,
  warnings: Warning[],
): Result {
  return {
    source,
    query_sent: querySent,
    papers,
    total_count: total,
    ...(cursor ? { next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The cursor's `k` (shown papers) after `kept` more papers. */
function keysAfter(start: SearchPosition, kept: Paper[]): { k?: string } {
  const k = rememberShown(start.k, kept);
  return k ? { k } : {};
}
