/**
 * getArticleRelationships: similar articles (ELink neighbor_score), citing articles and references
 * (ELink linkname), each enriched by one ESummary call; or the article itself formatted as citations.
 */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { eFetchArticles, eLink, eSummaryByIds, type LinkKind } from "../../sources/ncbi/pubmed/client.ts";
import { CITATION_STYLES, type CitationStyle, formatCitations } from "../../sources/citations/format.ts";
import { pubmedToCsl } from "../../sources/citations/from/pubmed.ts";
import { pmidSchema, pubmedUrl, unique } from "./pmid.ts";
import { matchSummaries } from "./summaries_by_id.ts";
import { recordSection, textBlock } from "../../render/markdown.ts";
import { cursorInput, cursorOffset, nextPage, type OffsetPaging } from "../../core/envelope.ts";
import { nextCallLine, nextCallSchema } from "../../core/next_call.ts";

/** Paged by a cursor over the linked articles; maxRelatedResults is the page size, free to change (#31). */
const PAGES: OffsetPaging = {
  tool: "getArticleRelationships",
  path: "relatedArticles",
  defining: (args) => ({ sourcePmid: args.sourcePmid, relationshipType: args.relationshipType }),
};

const RELATIONSHIPS = ["pubmed_similar_articles", "pubmed_citedin", "pubmed_references", "citation_formats"] as const;
const LINK_KIND: Record<string, LinkKind> = {
  pubmed_similar_articles: "similar",
  pubmed_citedin: "citedin",
  pubmed_references: "refs",
};

const input = z.object({
  sourcePmid: pmidSchema.describe("27797938 or PMID:27797938"),
  relationshipType: z.enum(RELATIONSHIPS).default("pubmed_similar_articles").describe(
    "citation_formats: the article's own citations",
  ),
  maxRelatedResults: z.number().int().min(1).max(50).default(5).describe("Per page"),
  citationStyles: z.array(z.enum(CITATION_STYLES)).min(1).max(8).default(["ris"]).describe("For citation_formats"),
  cursor: cursorInput(),
});

const relatedSchema = z.object({
  pmid: z.string(),
  title: z.string().describe("Empty when NCBI could not summarise the article (see summaryError)"),
  authors: z.array(z.string()),
  score: z.number().min(0).max(1).optional().describe(
    "Similar articles only: 0-1, PubMed's neighbor score over the best one's (1 = most similar)",
  ),
  rawScore: z.number().optional().describe("PubMed's own neighbor score (unbounded)"),
  linkUrl: z.string(),
  summaryError: z.string().optional(),
});

const output = z.object({
  sourcePmid: z.string(),
  relationshipType: z.string(),
  relatedArticles: z.array(relatedSchema),
  citations: z.object({
    ris: z.string().optional(),
    bibtex: z.string().optional(),
    apa_string: z.string().optional(),
    mla_string: z.string().optional(),
  }),
  retrievedCount: z.number(),
  totalLinked: z.number().optional().describe("All linked articles NCBI returned, across pages"),
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
  notice: z.string().optional(),
  eLinkUrl: z.string().optional(),
  eSummaryUrl: z.string().optional(),
  eFetchUrl: z.string().optional(),
});

type Output = z.input<typeof output>;

export const getArticleRelationships = defineTool({
  name: "getArticleRelationships",
  title: "PubMed related articles",
  toolset: "pubmed",
  description:
    "PubMed's similar, citing or referenced articles of one PMID, with titles and authors, or its citations. " +
    "Example: " +
    '{"sourcePmid":"9298984","relationshipType":"pubmed_citedin"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { sourcePmid: "9298984", maxRelatedResults: 5 },
    { sourcePmid: "9298984", relationshipType: "pubmed_citedin", maxRelatedResults: 10 },
    { sourcePmid: "34843274", relationshipType: "citation_formats", citationStyles: ["ris", "bibtex", "apa_string"] },
  ],
  async run(args, ctx) {
    if (args.relationshipType === "citation_formats") {
      return await citations(args.sourcePmid, unique(args.citationStyles), ctx);
    }
    return await related(args, ctx);
  },
  render(r) {
    if (r.relationshipType === "citation_formats") {
      return textBlock(
        `${r.relationshipType} of PMID ${r.sourcePmid}:`,
        Object.entries(r.citations).flatMap(([style, text]) => ["", `## ${style}`, "```", text ?? "", "```"]),
      );
    }
    const total = r.totalLinked === undefined ? "" : ` of ${r.totalLinked}`;
    return textBlock(
      `${r.retrievedCount}${total} ${r.relationshipType} for PMID ${r.sourcePmid}.`,
      r.notice && `notice: ${r.notice}`,
      r.relatedArticles.flatMap((a) => {
        const head = `[PMID ${a.pmid}](${a.linkUrl}): ${a.title || "(no summary)"}`;
        return recordSection(head, a, { omit: ["pmid", "title", "linkUrl"], level: 3 });
      }),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    );
  },
  paging: {
    argument: "cursor",
    path: "relatedArticles",
    keep: (r, kept, args) => ({
      ...r,
      retrievedCount: kept,
      ...nextPage(PAGES, args, cursorOffset(PAGES, args) + kept, Infinity),
    }),
  },
});

async function related(args: z.output<typeof input>, ctx: ToolContext): Promise<Output> {
  const { sourcePmid: pmid, relationshipType: type } = args;
  const offset = cursorOffset(PAGES, args);
  const links = await eLink(ctx, pmid, LINK_KIND[type]).catch((error) => {
    throw error instanceof ToolError && error.code === "ENTITY_NOT_FOUND" ? unknownPmid(pmid, error) : error;
  });
  // Similar-article lists start with the article itself (score 2^31-1): it is not related to itself.
  const others = links.value.filter((l) => l.id !== pmid);
  const chosen = others.slice(offset, offset + args.maxRelatedResults);
  const base = {
    sourcePmid: pmid,
    relationshipType: type,
    citations: {},
    eLinkUrl: links.url,
    totalLinked: others.length,
  };
  if (chosen.length === 0) {
    return {
      ...base,
      relatedArticles: [],
      retrievedCount: 0,
      notice: `PubMed links no ${type.replace("pubmed_", "").replace(/_/g, " ")} to PMID ${pmid}.`,
    };
  }
  const best = Math.max(0, ...others.map((l) => l.score ?? 0));
  const summaries = await eSummaryByIds(ctx, chosen.map((l) => l.id));
  const matched = matchSummaries(chosen.map((l) => l.id), summaries.value);
  const relatedArticles = chosen.map((link, i) => {
    const s = matched.summaries[i];
    return {
      pmid: link.id,
      title: s.title,
      authors: s.authors,
      ...(link.score === undefined ? {} : { score: normalised(link.score, best), rawScore: link.score }),
      linkUrl: pubmedUrl(link.id),
      ...(s.error ? { summaryError: s.error } : {}),
    };
  });
  return {
    ...base,
    relatedArticles,
    retrievedCount: relatedArticles.length,
    ...nextPage(PAGES, args, offset + chosen.length, others.length),
    ...(matched.warning ? { notice: matched.warning } : {}),
    eSummaryUrl: summaries.url,
  };
}

/**
 * ELink's neighbor scores have no fixed scale (tens of millions today, hundreds in 2008): divided by the
 * best similar article's score they become 0-1 and comparable across calls. Four decimals.
 */
function normalised(score: number, best: number): number {
  return best > 0 ? Math.round((Math.max(0, score) / best) * 10_000) / 10_000 : 0;
}

/** The same not-found error whether EFetch returns no record or ELink rejects the id (as get_pubmed_links does). */
function unknownPmid(pmid: string, cause?: ToolError): ToolError {
  return new ToolError(
    "ENTITY_NOT_FOUND",
    cause ? `PubMed has no record for PMID ${pmid} (${cause.message}).` : `PubMed has no record for PMID ${pmid}.`,
    "Check the PMID, or find the article with searchPubMedArticles.",
    { invalidInput: { field: "sourcePmid", value: pmid }, cause },
  );
}

async function citations(pmid: string, styles: CitationStyle[], ctx: ToolContext): Promise<Output> {
  const fetched = await eFetchArticles(ctx, [pmid]);
  const article = fetched.value.find((a) => a.pmid === pmid);
  if (!article) throw unknownPmid(pmid);
  return {
    sourcePmid: pmid,
    relationshipType: "citation_formats",
    relatedArticles: [],
    citations: await formatCitations(pubmedToCsl(article), styles, ctx.signal),
    retrievedCount: 0,
    eFetchUrl: fetched.url,
  };
}
