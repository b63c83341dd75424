/** searchPubMedArticles: ESearch, then (optionally) ESummary version=2.0 over the search history. */
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";
import { z } from "../../core/zod.ts";
import { invalidInput } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { eSearch, eSummaryByIds, eSummaryFromHistory } from "../../sources/ncbi/pubmed/client.ts";
import { eSpell } from "../../sources/ncbi/pubmed/espell.ts";
import type { PubMedSummary } from "../../sources/ncbi/pubmed/types.ts";
import { effectiveTerm, filledRange, SORT_VALUES } from "./search_query.ts";
import { matchSummaries } from "./summaries_by_id.ts";
import { count, recordSection, textBlock } from "../../render/markdown.ts";

/** ESearch serves only the first 10,000 PMIDs of a PubMed search. */
export const PUBMED_WINDOW = 10_000;

const DATE = /^\d{4}(?:[/-](?:0[1-9]|1[0-2])(?:[/-](?:0[1-9]|[12]\d|3[01]))?)?$/;
const dateField = (which: string) =>
  z.string().regex(DATE, "use YYYY, YYYY/MM or YYYY/MM/DD").transform((d) => d.replace(/-/g, "/")).optional()
    .describe(`${which}: YYYY[/MM[/DD]]`);

const input = z.object({
  queryTerm: z.string().min(3).max(4000).describe(
    'PubMed syntax: "phrases", [tiab]/[mh] tags, AND/OR/NOT',
  ),
  maxResults: z.number().int().min(1).max(1000).default(20).describe("PMIDs to return"),
  sortBy: z.enum(["relevance", "pub_date", "author", "journal_name"]).default("relevance").describe(
    "pub_date: newest first",
  ),
  dateRange: z.strictObject({
    minDate: dateField("Earliest"),
    maxDate: dateField("Latest"),
    dateType: z.enum(["pdat", "mdat", "edat"]).default("pdat").describe(
      "published, modified or added",
    ),
  }).optional().describe("Inclusive"),
  filterByPublicationTypes: z.array(z.string().min(1).max(100)).max(20).optional().describe(
    "Any of, e.g. Review",
  ),
  author: z.array(z.string().trim().max(100)).optional().describe("e.g. Doudna JA"),
  journal: z.string().trim().min(1).max(200).optional().describe("e.g. Nature"),
  meshTerms: z.array(z.string().trim().max(100)).optional().describe("e.g. Asthma"),
  language: z.string().refine((l) => /^[A-Za-z][A-Za-z ]{1,29}$/.test(l), "a language name such as english")
    .optional().describe("e.g. english"),
  freeFullText: z.boolean().default(false).describe("Free full text"),
  offset: z.number().int().min(0).default(0).describe("0, then nextOffset"),
  fetchBriefSummaries: z.number().int().min(0).max(100).default(0).describe("Summaries of the first N"),
});

const summarySchema = z.object({
  pmid: z.string(),
  title: z.string(),
  authors: z.array(z.string()).describe("'Lastname Initials', in author order"),
  source: z.string().describe("Journal abbreviation"),
  pubDate: z.string().optional().describe("YYYY-MM-DD, YYYY-MM or YYYY"),
  epubDate: z.string().optional().describe("Electronic publication date, same format"),
  doi: z.string().optional(),
  error: z.string().optional().describe("Why NCBI could not summarise this PMID"),
});

const output = z.object({
  searchParameters: z.object({
    queryTerm: z.string(),
    maxResults: z.number(),
    offset: z.number(),
    sortBy: z.string(),
    dateRange: z.object({ minDate: z.string(), maxDate: z.string(), dateType: z.string() }).optional(),
    filterByPublicationTypes: z.array(z.string()).optional(),
    fetchBriefSummaries: z.number(),
  }),
  effectiveESearchTerm: z.string().describe("The term sent to ESearch (filters included)"),
  queryTranslation: z.string().optional().describe("How PubMed interpreted the term"),
  totalFound: z.number().describe("All matches in PubMed"),
  retrievedPmidCount: z.number(),
  pmids: z.array(z.string()),
  nextOffset: z.number().optional().describe("Offset of the next page; absent on the last"),
  next: nextCallSchema,
  briefSummaries: z.array(summarySchema),
  warnings: z.array(z.string()).describe("NCBI errors/warnings about parts of the query, e.g. a phrase not found"),
  eSearchUrl: z.string(),
  eSummaryUrl: z.string().optional(),
});

export const searchPubMedArticles = defineTool({
  name: "searchPubMedArticles",
  title: "Search PubMed",
  toolset: "pubmed",
  description: "Biomedical literature: PubMed search (its syntax plus filters): PMIDs, count, query " +
    "translation, summaries; paged. Other fields, citation counts: search_papers. " +
    'Example: {"queryTerm":"asthma"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { queryTerm: "cancer", maxResults: 5, fetchBriefSummaries: 2 },
    {
      queryTerm: "breast cancer",
      maxResults: 10,
      sortBy: "pub_date",
      dateRange: { minDate: "2008", maxDate: "2012/12/31" },
      filterByPublicationTypes: ["Review"],
    },
    { queryTerm: "crispr", author: ["Doudna JA"], language: "english", freeFullText: true, offset: 20 },
  ],
  async run(args, ctx) {
    if (args.offset + args.maxResults > PUBMED_WINDOW) {
      throw invalidInput(
        "offset",
        `offset + maxResults must stay within the first ${PUBMED_WINDOW} PMIDs`,
        args.offset,
        "Narrow the query (dates, filters) instead of paging further.",
      );
    }
    const term = effectiveTerm(args.queryTerm, {
      publicationTypes: args.filterByPublicationTypes,
      authors: args.author,
      journal: args.journal,
      meshTerms: args.meshTerms,
      language: args.language,
      freeFullText: args.freeFullText,
      dateRange: args.dateRange,
    });
    // Summaries come over the search history, from `offset` on (a later page reads the same listing).
    const viaHistory = args.fetchBriefSummaries > 0;
    const search = await eSearch(ctx, {
      term,
      retmax: args.maxResults,
      retstart: args.offset,
      sort: SORT_VALUES[args.sortBy],
      useHistory: viaHistory,
    });
    const found = search.value;
    const pmids = found.ids.slice(0, args.maxResults);
    let summaries: PubMedSummary[] = [];
    let eSummaryUrl: string | undefined;
    const warnings = [...found.warnings];
    const count = Math.min(args.fetchBriefSummaries, pmids.length);
    if (count > 0) {
      const fetched = viaHistory && found.webEnv && found.queryKey
        ? await eSummaryFromHistory(ctx, found.webEnv, found.queryKey, count, args.offset)
        : await eSummaryByIds(ctx, pmids.slice(0, count));
      const matched = matchSummaries(pmids.slice(0, count), fetched.value);
      summaries = matched.summaries;
      if (matched.warning) warnings.push(matched.warning);
      eSummaryUrl = fetched.url;
    }
    if (found.count === 0 && args.offset === 0) {
      const suggestion = await spelling(ctx, args.queryTerm);
      if (suggestion) warnings.push(`Did you mean: ${suggestion} (PubMed ESpell)? Search again with that queryTerm.`);
    }
    const end = args.offset + pmids.length;
    const range = filledRange(args.dateRange);
    return {
      searchParameters: {
        queryTerm: args.queryTerm,
        maxResults: args.maxResults,
        offset: args.offset,
        sortBy: args.sortBy,
        ...(range ? { dateRange: range } : {}),
        ...(args.filterByPublicationTypes ? { filterByPublicationTypes: args.filterByPublicationTypes } : {}),
        fetchBriefSummaries: args.fetchBriefSummaries,
      },
      effectiveESearchTerm: term,
      ...(found.queryTranslation ? { queryTranslation: found.queryTranslation } : {}),
      totalFound: found.count,
      retrievedPmidCount: pmids.length,
      pmids,
      ...(pmids.length > 0 && end < Math.min(found.count, PUBMED_WINDOW)
        ? { nextOffset: end, next: nextCall("searchPubMedArticles", args, { offset: end }) }
        : {}),
      briefSummaries: summaries,
      warnings,
      eSearchUrl: search.url,
      ...(eSummaryUrl ? { eSummaryUrl } : {}),
    };
  },
  render: (r) =>
    textBlock(
      `${count(r.totalFound, "PubMed article")} match; ${r.retrievedPmidCount} PMIDs returned.`,
      `effectiveESearchTerm: ${r.effectiveESearchTerm}`,
      r.queryTranslation && `queryTranslation: ${r.queryTranslation}`,
      r.warnings.map((w) => `warning: ${w}`),
      r.pmids.length > 0 && `pmids: ${r.pmids.join(", ")}`,
      r.nextOffset !== undefined && nextCallLine(r.next, "offset"),
      r.briefSummaries.flatMap((s) =>
        recordSection(s.title ? `PMID ${s.pmid}: ${s.title}` : `PMID ${s.pmid}`, s, { omit: ["pmid", "title"] })
      ),
    ),
  // A cut page keeps its first PMIDs and their summaries; nextOffset and next continue after them (#31).
  paging: {
    argument: "offset",
    path: "pmids",
    keep: (r, kept, args) => {
      const pmids = new Set(r.pmids);
      const end = r.searchParameters.offset + kept;
      return {
        ...r,
        retrievedPmidCount: kept,
        briefSummaries: r.briefSummaries.filter((s) => pmids.has(s.pmid)),
        nextOffset: end,
        next: nextCall("searchPubMedArticles", args, { offset: end }),
      };
    },
  },
});

/** ESpell's suggestion for a query that found nothing; a failed ESpell call only loses the hint (logged). */
async function spelling(ctx: Parameters<typeof eSpell>[0] & Pick<ToolContext, "log">, term: string) {
  try {
    return (await eSpell(ctx, term)).value;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.log.warn("espell failed", { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}
