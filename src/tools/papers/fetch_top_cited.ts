/** fetch_top_cited: the most cited OpenAlex works of a topic, of an author, or of both, since a date. */
import { z } from "../../core/zod.ts";
import { invalidInput } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { countInput, pagedOutput } from "./fetch_latest.ts";
import { dayArg, firstDay } from "./date_range.ts";
import { cursorInput, cursorOffset, nextPage, type OffsetPaging, offsetPaging } from "../../core/envelope.ts";

const PAGES: OffsetPaging = { tool: "fetch_top_cited", path: "papers" };
import { categoryUsedSchema, resolveOpenAlexCategory } from "./openalex_category.ts";
import { authorFilter } from "./author_ref.ts";
import { citedPaper, isoDay } from "./paper_view.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { paperListSchema, paperSchema, partialResult, partialSuccess, renderPapers } from "./schemas.ts";

const input = z.object({
  concept: z.string().trim().min(1).max(200).optional().describe("OpenAlex id (T10320, C41008148) or topic name"),
  author: z.string().trim().min(1).max(60).optional().describe("A id or ORCID"),
  // The seed's ISO date; a year or month is taken as its first day, as search_papers.from_date takes it (#34).
  since: dayArg("Since"),
  count: countInput,
  cursor: cursorInput(),
});

const output = paperListSchema.extend({
  papers: z.array(paperSchema.required({ cited_by_count: true })),
  concept_used: categoryUsedSchema.optional(),
  author_filter: z.string().optional().describe("OpenAlex filter of the author's works"),
  ...pagedOutput,
});

export const fetchTopCited = defineTool({
  name: "fetch_top_cited",
  title: "Most cited papers of a topic",
  toolset: "papers",
  description: "Most cited OpenAlex works of a topic (id or name) and/or an author (find_author) since a date. " +
    'Example: {"concept":"T11636","since":"2020-01-01","count":10}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { concept: "T11636", since: "2020-01-01", count: 10 },
    { concept: "artificial intelligence in healthcare", since: "2022-01-01", count: 5 },
    { author: "A5043579160", since: "2000", count: 5 },
  ],
  async run(args, ctx) {
    const day = firstDay(args.since);
    const since = new Date(`${day}T00:00:00Z`);
    if (Number.isNaN(since.getTime()) || isoDay(since.getTime()) !== day) {
      throw invalidInput("since", "not a calendar date", args.since, "Use YYYY-MM-DD, e.g. 2020-01-01.");
    }
    if (since.getTime() > ctx.clock.now()) {
      throw invalidInput("since", "is in the future", args.since, "Use a past date, e.g. 2020-01-01.");
    }
    if (!args.concept && !args.author) {
      throw invalidInput(
        "concept",
        "is missing",
        args.concept,
        "Give a topic in concept, or an author (find_author's id).",
      );
    }
    const offset = cursorOffset(PAGES, args);
    const client = new OpenAlexClient(ctx);
    const author = args.author ? authorFilter(args.author) : undefined;
    const resolved = args.concept
      ? await resolveOpenAlexCategory(client, args.concept, "concept")
      : { filter: "", used: undefined, warnings: [] };
    // The listing is read from its start (OpenAlex cursors cannot seek): earlier pages come from the cache.
    const { works, total, shortfall } = await client.works(
      {
        filter: [resolved.filter, author, `from_publication_date:${day}`].filter(Boolean).join(","),
        sort: "cited_by_count:desc",
        count: args.count,
      },
      (got, wanted) => ctx.progress(got, wanted, `fetched ${got} of ${wanted} papers`),
    );
    const papers = works.slice(offset).map(citedPaper);
    logOperatorNotices(ctx, client);
    const warnings = [...resolved.warnings];
    if (shortfall) warnings.push(partialResult(shortfall));
    const partial = partialSuccess(papers, "OpenAlex");
    if (partial) warnings.push(partial);
    return {
      source: "openalex" as const,
      ...(resolved.used ? { concept_used: resolved.used } : {}),
      ...(author ? { author_filter: author } : {}),
      papers,
      total,
      ...nextPage(PAGES, args, offset + papers.length, Math.min(args.count, total)),
      ...(warnings.length ? { warnings } : {}),
    };
  },
  render: renderPapers,
  paging: offsetPaging(PAGES),
});
