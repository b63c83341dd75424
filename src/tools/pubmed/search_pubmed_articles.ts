/** searchPubMedArticles: ESearch, then (optionally) ESummary version=2.0 over the search history. */
import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { eSearch, eSummaryByIds, eSummaryFromHistory } from "../../sources/ncbi/pubmed/client.ts";
import type { PubMedSummary } from "../../sources/ncbi/pubmed/types.ts";
import { dateLimits, effectiveTerm, SORT_VALUES } from "./search_query.ts";
import { count, recordSection, textBlock } from "../../render/markdown.ts";

const DATE = /^\d{4}(?:[/-](?:0[1-9]|1[0-2])(?:[/-](?:0[1-9]|[12]\d|3[01]))?)?$/;
const dateField = (which: string) =>
  z.string().regex(DATE, "use YYYY, YYYY/MM or YYYY/MM/DD").transform((d) => d.replace(/-/g, "/")).optional()
    .describe(`${which}: YYYY[/MM[/DD]]`);

const input = z.object({
  queryTerm: z.string().min(3).max(4000).describe(
    'PubMed syntax: "phrases", [Title/Abstract] and [MeSH Terms] tags, AND/OR/NOT',
  ),
  maxResults: z.number().int().min(1).max(1000).default(20).describe("PMIDs to return"),
  sortBy: z.enum(["relevance", "pub_date", "author", "journal_name"]).default("relevance").describe(
    "pub_date: newest first",
  ),
  dateRange: z.strictObject({
    minDate: dateField("Earliest"),
    maxDate: dateField("Latest"),
    dateType: z.enum(["pdat", "mdat", "edat"]).default("pdat").describe(
      "pdat published, mdat modified, edat added",
    ),
  }).optional().describe("Inclusive date limits"),
  filterByPublicationTypes: z.array(z.string().min(1).max(100)).max(20).optional().describe(
    'Any of these types, e.g. ["Review"]',
  ),
  fetchBriefSummaries: z.number().int().min(0).max(100).default(0).describe("Summaries of the first N PMIDs"),
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
  briefSummaries: z.array(summarySchema),
  warnings: z.array(z.string()).describe("NCBI errors/warnings about parts of the query, e.g. a phrase not found"),
  eSearchUrl: z.string(),
  eSummaryUrl: z.string().optional(),
});

export const searchPubMedArticles = defineTool({
  name: "searchPubMedArticles",
  title: "Search PubMed",
  toolset: "pubmed",
  description:
    "Search PubMed (its query syntax): PMIDs, total count, query translation, warnings, brief summaries of " +
    'the first N. Then fetchArticleDetails or getArticleRelationships. Example: {"queryTerm":"asthma[MeSH ' +
    'Terms] AND children","fetchBriefSummaries":5}',
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
  ],
  async run(args, ctx) {
    const term = effectiveTerm(args.queryTerm, args.filterByPublicationTypes);
    const limits = dateLimits(args.dateRange);
    const wantSummaries = args.fetchBriefSummaries > 0;
    const search = await eSearch(ctx, {
      term,
      retmax: args.maxResults,
      sort: SORT_VALUES[args.sortBy],
      ...limits,
      useHistory: wantSummaries,
    });
    const found = search.value;
    const pmids = found.ids.slice(0, args.maxResults);
    let summaries: PubMedSummary[] = [];
    let eSummaryUrl: string | undefined;
    const count = Math.min(args.fetchBriefSummaries, pmids.length);
    if (count > 0) {
      const fetched = found.webEnv && found.queryKey
        ? await eSummaryFromHistory(ctx, found.webEnv, found.queryKey, count)
        : await eSummaryByIds(ctx, pmids.slice(0, count));
      summaries = fetched.value.slice(0, count);
      eSummaryUrl = fetched.url;
    }
    return {
      searchParameters: {
        queryTerm: args.queryTerm,
        maxResults: args.maxResults,
        sortBy: args.sortBy,
        ...(limits
          ? { dateRange: { minDate: limits.mindate, maxDate: limits.maxdate, dateType: limits.datetype } }
          : {}),
        ...(args.filterByPublicationTypes ? { filterByPublicationTypes: args.filterByPublicationTypes } : {}),
        fetchBriefSummaries: args.fetchBriefSummaries,
      },
      effectiveESearchTerm: term,
      ...(found.queryTranslation ? { queryTranslation: found.queryTranslation } : {}),
      totalFound: found.count,
      retrievedPmidCount: pmids.length,
      pmids,
      briefSummaries: summaries,
      warnings: found.warnings,
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
      r.briefSummaries.flatMap((s) =>
        recordSection(s.title ? `PMID ${s.pmid}: ${s.title}` : `PMID ${s.pmid}`, s, { omit: ["pmid", "title"] })
      ),
    ),
});
