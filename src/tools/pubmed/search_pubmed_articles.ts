/** searchPubMedArticles: ESearch, then (optionally) ESummary version=2.0 over the search history. */
import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { eSearch, eSummaryByIds, eSummaryFromHistory } from "../../sources/ncbi/pubmed/client.ts";
import type { PubMedSummary } from "../../sources/ncbi/pubmed/types.ts";
import { dateLimits, effectiveTerm, SORT_VALUES } from "./search_query.ts";

const DATE = /^\d{4}(?:[/-](?:0[1-9]|1[0-2])(?:[/-](?:0[1-9]|[12]\d|3[01]))?)?$/;
const dateField = (which: string) =>
  z.string().regex(DATE, "use YYYY, YYYY/MM or YYYY/MM/DD").transform((d) => d.replace(/-/g, "/")).optional()
    .describe(`${which} date, YYYY, YYYY/MM or YYYY/MM/DD (inclusive). Leave out for an open end.`);

const input = z.object({
  queryTerm: z.string().min(3).max(4000).describe(
    "PubMed query, exactly as in the PubMed search box: words, phrases in double quotes, field tags " +
      '([Title/Abstract], [MeSH Terms], [Author], [Journal]) and AND/OR/NOT. e.g. "crispr[Title] AND therapy"',
  ),
  maxResults: z.number().int().min(1).max(1000).default(20).describe("How many PMIDs to return (1-1000)"),
  sortBy: z.enum(["relevance", "pub_date", "author", "journal_name"]).default("relevance").describe(
    "Order: relevance (Best Match), pub_date (newest first), author (first author A-Z), journal_name (A-Z)",
  ),
  dateRange: z.strictObject({
    minDate: dateField("Earliest"),
    maxDate: dateField("Latest"),
    dateType: z.enum(["pdat", "mdat", "edat"]).default("pdat").describe(
      "pdat publication date, mdat last modification, edat date added to PubMed",
    ),
  }).optional().describe("Limit by date"),
  filterByPublicationTypes: z.array(z.string().min(1).max(100)).max(20).optional().describe(
    'Keep only these publication types (OR-ed), e.g. ["Review", "Randomized Controlled Trial"]',
  ),
  fetchBriefSummaries: z.number().int().min(0).max(100).default(0).describe(
    "Also return title/authors/journal/date for the first N PMIDs (0-100; one extra NCBI call)",
  ),
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
  description: "Search PubMed with its own query syntax and get matching PMIDs (newest, most relevant...), the " +
    "total count, NCBI's query translation and any warnings (e.g. a phrase not found), plus optional brief " +
    "summaries (title, authors, journal, date) for the first N. Use fetchArticleDetails next for abstracts, " +
    "MeSH terms and full metadata; getArticleRelationships for similar/citing articles. Up to 1000 PMIDs " +
    "and 100 summaries per call. " +
    'Example: {"queryTerm":"asthma[MeSH Terms] AND children","maxResults":10,"sortBy":"pub_date",' +
    '"fetchBriefSummaries":5}',
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
  render(r) {
    const lines = [
      `${r.totalFound} PubMed articles match ${r.effectiveESearchTerm}; ${r.retrievedPmidCount} PMIDs returned.`,
    ];
    for (const w of r.warnings) lines.push(`Warning: ${w}`);
    for (const s of r.briefSummaries) {
      lines.push(
        s.error ? `- PMID ${s.pmid}: ${s.error}` : `- PMID ${s.pmid}: ${s.title} (${s.source}, ${s.pubDate ?? "n.d."})`,
      );
    }
    const rest = r.pmids.slice(r.briefSummaries.length);
    if (rest.length) lines.push(`PMIDs: ${rest.join(", ")}`);
    return lines.join("\n");
  },
});
