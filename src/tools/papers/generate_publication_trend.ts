/** generate_publication_trend: publications per year for a PubMed query or an OpenAlex search, as a chart and a table. */
import { z } from "../../core/zod.ts";
import { quoteValue } from "../../core/clip.ts";
import { invalidInput } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, type ToolContext, withContent } from "../tool_def.ts";
import { pubmedYearCounts, type YearCount } from "../../sources/ncbi/pubmed/year_counts.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { yearSeriesSvg } from "../../render/chart/year_series.ts";
import { chartImageSchema, drawChart, imageLine } from "../chart_image.ts";
import { markdownTable } from "../../render/markdown_table.ts";

/** Longest range one chart covers: 50 PubMed requests, about 17 s at NCBI's keyless 3 requests/s. */
export const MAX_YEARS = 50;
const NOUNS = { pubmed: "PubMed articles", openalex: "OpenAlex works" } as const;
const year = z.number().int();
/** Before this, PubMed and OpenAlex hold next to nothing; checked in run (bounds in the schema cost tools/list). */
const FIRST_YEAR = 1800;

const input = z.object({
  query: z.string().trim().min(1).max(500).describe("PubMed query or OpenAlex search text"),
  source: z.enum(["pubmed", "openalex"]).default("pubmed").describe("Index"),
  fromYear: year.optional().describe("Default toYear − 19"),
  toYear: year.optional().describe("Default this year"),
  kind: z.enum(["line", "bar"]).default("line").describe("Chart"),
});

const output = z.object({
  source: z.enum(["pubmed", "openalex"]),
  query: z.string(),
  fromYear: z.number().int(),
  toYear: z.number().int(),
  counts: z.array(z.object({ year: z.number().int(), count: z.number().int() })).describe("Every year, zeros kept."),
  total: z.number().int().describe("Sum over the range."),
  partial_year: z.number().int().optional().describe("This year, in range: counted so far"),
  warnings: z.array(z.string()).optional().describe("Upstream notes, e.g. a phrase PubMed did not find."),
  image: chartImageSchema,
});

export const generatePublicationTrend = defineTool({
  name: "generate_publication_trend",
  title: "Publication trend per year",
  toolset: "papers",
  description: "Publications per year (≤ 50 years) for a PubMed query or OpenAlex search: PNG chart, " +
    'Markdown table, SVG resource. Example: {"query":"CRISPR","fromYear":2005}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ query: "CRISPR", fromYear: 2005, toYear: 2024 }, {
    query: "malaria vaccine",
    source: "openalex",
    fromYear: 2000,
    toYear: 2024,
    kind: "bar",
  }],
  async run(args, ctx) {
    const thisYear = new Date(ctx.clock.now()).getUTCFullYear();
    const toYear = args.toYear ?? Math.min(thisYear, (args.fromYear ?? thisYear) + MAX_YEARS - 1);
    const fromYear = args.fromYear ?? Math.max(FIRST_YEAR, toYear - 19);
    if (fromYear < FIRST_YEAR) throw invalidInput("fromYear", `must be ${FIRST_YEAR} or later`, fromYear);
    if (toYear > thisYear) throw invalidInput("toYear", `must not be after this year (${thisYear})`, toYear);
    if (toYear < fromYear) throw invalidInput("toYear", `must not be before fromYear (${fromYear})`, toYear);
    if (toYear - fromYear + 1 > MAX_YEARS) {
      throw invalidInput("fromYear", `the range may span at most ${MAX_YEARS} years`, { fromYear, toYear });
    }
    const { counts, warnings } = args.source === "pubmed"
      ? await pubmedYearCounts(
        ctx,
        args.query,
        fromYear,
        toYear,
        (done, total) => ctx.progress(done, total, `PubMed counts: ${done} of ${total} years`),
      )
      : await openAlexYearCounts(ctx, args.query, fromYear, toYear);
    // The year under way has only the months so far: marked, so its low count does not read as a decline (#34).
    const partial = fromYear <= thisYear && thisYear <= toYear;
    const svg = yearSeriesSvg({
      title: `${NOUNS[args.source]} per year: ${args.query}`,
      yTitle: args.source === "pubmed" ? "Articles (count)" : "Works (count)",
      kind: args.kind,
      points: counts,
      ...(partial ? { partialYear: thisYear } : {}),
    });
    const { image, block } = await drawChart(ctx, "papers", svg);
    const total = counts.reduce((sum, c) => sum + c.count, 0);
    return withContent({
      source: args.source,
      query: args.query,
      fromYear,
      toYear,
      counts,
      total,
      ...(partial ? { partial_year: thisYear } : {}),
      ...(warnings.length ? { warnings } : {}),
      image,
    }, [block]);
  },
  render(r) {
    return [
      `# ${NOUNS[r.source]} per year, ${r.fromYear}–${r.toYear}: ${r.query}`,
      `source: ${r.source}; total: ${r.total}`,
      ...(r.warnings ?? []).map((w) => `warning: ${w}`),
      markdownTable(
        ["Year", "Count"],
        r.counts.map((c) => [c.year === r.partial_year ? `${c.year} (partial: so far)` : c.year, c.count]),
      ),
      imageLine(r.image),
    ].join("\n");
  },
});

/** One group-by request; years OpenAlex has no works for are zeros, not gaps. */
async function openAlexYearCounts(
  ctx: ToolContext,
  query: string,
  fromYear: number,
  toYear: number,
): Promise<{ counts: YearCount[]; warnings: string[] }> {
  const client = new OpenAlexClient(ctx);
  const groups = await client.groupWorks(
    { search: query, filter: `publication_year:${fromYear}-${toYear}` },
    "publication_year",
  );
  // A group whose key is not a year of the range or whose count is not a whole number of works is left out
  // (never drawn, never a failed output check): one warning names how many and the first.
  const year = (key: string) => /^\d{4}$/.test(key) ? Number(key) : NaN;
  const good = (g: (typeof groups)[number]) =>
    year(g.key) >= fromYear && year(g.key) <= toYear && Number.isSafeInteger(g.count) && g.count >= 0;
  const bad = groups.filter((g) => !good(g));
  const byYear = new Map(groups.filter(good).map((g) => [year(g.key), g.count]));
  const counts = Array.from({ length: toYear - fromYear + 1 }, (_, i) => ({
    year: fromYear + i,
    count: byYear.get(fromYear + i) ?? 0,
  }));
  logOperatorNotices(ctx, client);
  const warnings: string[] = [];
  if (bad.length) {
    warnings.push(
      `left out ${bad.length} OpenAlex group${bad.length === 1 ? "" : "s"} whose key is not a year of the ` +
        `range or whose count is not a whole number of works (first: key ${quoteValue(bad[0].key)}, count ` +
        `${quoteValue(bad[0].count)})`,
    );
  }
  return { counts, warnings };
}
