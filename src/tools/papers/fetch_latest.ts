/** fetch_latest: the newest papers of an arXiv category or an OpenAlex topic/field. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { latestInCategory } from "../../sources/arxiv/client.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { resolveArxivCategory } from "./arxiv_category.ts";
import { categoryUsedSchema, resolveOpenAlexCategory } from "./openalex_category.ts";
import { arxivPaper, isoDay, openalexPaper } from "./paper_view.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { paperListSchema, partialResult, partialSuccess, renderPapers, sourceSchema } from "./schemas.ts";
import { cursorInput, cursorOffset, nextPage, type OffsetPaging, offsetPaging } from "../../core/envelope.ts";
import { nextCallSchema } from "../../core/next_call.ts";

/**
 * Papers to return: no hard maximum, 50 by default (seed 004); the sources fetch page after page until they
 * have them. The answer shows what fits the output budget; `next` reaches the rest of the `count`.
 */
export const countInput = z.number().int().min(1).default(50).describe("Papers; no maximum");

/** The page fields of a list of `count` papers shown page by page (#31). */
export const pagedOutput = {
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
};

const PAGES: OffsetPaging = { tool: "fetch_latest", path: "papers" };

const input = z.object({
  source: sourceSchema.describe("arXiv preprints or OpenAlex works"),
  category: z.string().trim().min(1).max(200).describe(
    "arXiv code (cs.LG), OpenAlex id (T10320, fields/17) or topic name",
  ),
  count: countInput,
  cursor: cursorInput(),
});

const output = paperListSchema.extend({
  category: z.string().describe("The category searched (canonical arXiv code or OpenAlex id)"),
  category_used: categoryUsedSchema.optional(),
  ...pagedOutput,
});

export const fetchLatest = defineTool({
  name: "fetch_latest",
  title: "Latest papers in a category",
  toolset: "papers",
  description: "Newest papers of an arXiv category or OpenAlex topic/field: ids, abstract start, PDF link; full " +
    'text: fetch_content. Example: {"source":"arxiv","category":"cs.LG","count":5}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { source: "arxiv", category: "cs.LG", count: 5 },
    { source: "openalex", category: "T11636", count: 5 },
  ],
  run: (args, ctx) => args.source === "arxiv" ? latestArxiv(args, ctx) : latestOpenAlex(args, ctx),
  render: renderPapers,
  paging: offsetPaging(PAGES),
});

type Args = z.output<typeof input>;

async function latestArxiv(args: Args, ctx: ToolContext): Promise<z.input<typeof output>> {
  const { category, warnings } = resolveArxivCategory(args.category, "category");
  if (!category.active) {
    warnings.push({
      code: "RetiredCategory",
      message: `${category.code} (${category.name}) is a retired arXiv category: it holds only old papers.`,
    });
  }
  const offset = cursorOffset(PAGES, args);
  const result = await latestInCategory(
    ctx,
    category.code,
    Math.max(1, args.count - offset),
    (got, wanted) => progress(ctx, got, wanted),
    offset,
  );
  if (result.shortfall) warnings.push(partialResult(result.shortfall));
  const papers = result.entries.map(arxivPaper);
  const partial = partialSuccess(papers, "arXiv");
  if (partial) warnings.push(partial);
  return {
    source: "arxiv",
    category: category.code,
    papers,
    total: result.total,
    ...nextPage(PAGES, args, offset + papers.length, Math.min(args.count, result.total)),
    ...(warnings.length ? { warnings } : {}),
  };
}

async function latestOpenAlex(args: Args, ctx: ToolContext): Promise<z.input<typeof output>> {
  const offset = cursorOffset(PAGES, args);
  const client = new OpenAlexClient(ctx);
  const resolved = await resolveOpenAlexCategory(client, args.category, "category");
  // The listing is read from its start (OpenAlex cursors cannot seek): earlier pages come from the cache.
  const { works, total, shortfall } = await client.works(
    {
      filter: `${resolved.filter},to_publication_date:${isoDay(ctx.clock.now())}`,
      sort: "publication_date:desc",
      count: args.count,
    },
    (got, wanted) => progress(ctx, got, wanted),
  );
  const papers = works.slice(offset).map((w) => openalexPaper(w));
  logOperatorNotices(ctx, client);
  const warnings = [...resolved.warnings];
  if (shortfall) warnings.push(partialResult(shortfall));
  const partial = partialSuccess(papers, "OpenAlex");
  if (partial) warnings.push(partial);
  return {
    source: "openalex",
    category: resolved.used.id,
    category_used: resolved.used,
    papers,
    total,
    ...nextPage(PAGES, args, offset + papers.length, Math.min(args.count, total)),
    ...(warnings.length ? { warnings } : {}),
  };
}

function progress(ctx: ToolContext, got: number, wanted: number): Promise<void> {
  return ctx.progress(got, wanted, `fetched ${got} of ${wanted} papers`);
}
