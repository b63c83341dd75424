/** fetchArticleDetails: EFetch db=pubmed (GET, or POST for long id lists) at one of four detail levels. */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { parseEFetchPubMed } from "../../sources/ncbi/pubmed/parse_efetch.ts";
import { splitMedlineText } from "../../sources/ncbi/pubmed/parse_medline_text.ts";
import { eFetch, eFetchArticles } from "../../sources/ncbi/pubmed/client.ts";
import { splitRawRecords } from "../../sources/ncbi/pubmed/raw.ts";
import { abstractPlusView, citationView } from "./article_views.ts";
import { pmidSchema, unique } from "./pmid.ts";
import { articleSchema } from "./schemas.ts";
import { articleSection } from "./render.ts";
import { count, textBlock } from "../../render/markdown.ts";
import { cursorInput, cursorOffset, type OffsetPaging, offsetPaging } from "../../core/envelope.ts";
import { nextCallLine, nextCallSchema } from "../../core/next_call.ts";

/**
 * Pages over the requested PMIDs (#31): a page is the records of the PMIDs from the cursor on that fit; it ends
 * after its last record, and notFoundPmids name only the PMIDs before that.
 */
const PAGES: OffsetPaging = {
  tool: "fetchArticleDetails",
  path: "articles",
  splitItems: true,
  positionOf: (r: Result, i) => r.requestedPmids.indexOf(r.articles[i].pmid),
  trim: (r: Result, kept) => {
    const before = new Set(r.requestedPmids.slice(0, r.requestedPmids.indexOf(r.articles[kept - 1].pmid) + 1));
    return { ...r, notFoundPmids: r.notFoundPmids.filter((p) => before.has(p)) };
  },
};

const input = z.object({
  pmids: z.array(pmidSchema).min(1).max(200).describe("31452104 or PMID:31452104"),
  detailLevel: z.enum(["abstract_plus", "full_xml", "medline_text", "citation_data"]).default("abstract_plus")
    .describe("abstract_plus: parsed; citation_data: reference fields; full_xml, medline_text: raw"),
  includeMeshTerms: z.boolean().default(true).describe("abstract_plus, citation_data: MeSH headings"),
  includeGrantInfo: z.boolean().default(false).describe("abstract_plus: funding grants"),
  cursor: cursorInput(),
});

const output = z.object({
  requestedPmids: z.array(z.string()).describe("The PMIDs asked for, normalised and de-duplicated"),
  detailLevel: z.string(),
  articles: z.array(articleSchema).describe("Found records, in the order requested"),
  notFoundPmids: z.array(z.string()).describe("Requested PMIDs PubMed returned no record for"),
  eFetchDetails: z.object({ urls: z.array(z.string()), requestMethod: z.enum(["GET", "POST"]) }),
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
});

type Article = z.input<typeof articleSchema>;
type Result = z.output<typeof output>;

export const fetchArticleDetails = defineTool({
  name: "fetchArticleDetails",
  title: "PubMed article details",
  toolset: "pubmed",
  description: "PubMed records by PMID: title, abstract, authors, affiliations, journal, dates, DOI, MeSH, keywords, " +
    "grants; or citation fields, XML or MEDLINE text. Example: " +
    '{"pmids":["27797938"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { pmids: ["27797938", "PMID:30108519"] },
    { pmids: ["34843274"], detailLevel: "citation_data" },
    { pmids: ["19304878"], detailLevel: "medline_text" },
  ],
  async run(args, ctx) {
    const requested = unique(args.pmids);
    const offset = cursorOffset(PAGES, args);
    const wanted = requested.slice(offset);
    const format = args.detailLevel === "medline_text" ? "medline" : "xml";
    const byPmid = new Map<string, Article>();
    let sent: { url: string; method: "GET" | "POST" };
    if (format === "medline" || args.detailLevel === "full_xml") {
      const fetched = await eFetch(ctx, wanted, format);
      sent = fetched;
      if (format === "medline") {
        for (const r of splitMedlineText(fetched.value)) byPmid.set(r.pmid, { pmid: r.pmid, medlineText: r.text });
      } else {
        const raw = splitRawRecords(fetched.value);
        for (const a of parseEFetchPubMed(fetched.value, fetched.url)) {
          byPmid.set(a.pmid, { pmid: a.pmid, title: a.title, fullXml: raw.get(a.pmid) ?? "" });
        }
      }
    } else {
      const fetched = await eFetchArticles(ctx, wanted);
      sent = fetched;
      for (const a of fetched.value) {
        byPmid.set(a.pmid, args.detailLevel === "citation_data" ? citationView(a, args) : abstractPlusView(a, args));
      }
    }
    const found = wanted.filter((p) => byPmid.has(p));
    const notFoundPmids = wanted.filter((p) => !byPmid.has(p));
    if (found.length === 0) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `PubMed has no record for ${requested.length === 1 ? "PMID" : "any of the PMIDs"} ${requested.join(", ")}.`,
        "Check the PMIDs, or find the right ones with searchPubMedArticles.",
        { invalidInput: { field: "pmids", value: requested } },
      );
    }
    return {
      requestedPmids: requested,
      detailLevel: args.detailLevel,
      articles: found.map((p) => byPmid.get(p)!),
      notFoundPmids,
      eFetchDetails: { urls: [sent.url], requestMethod: sent.method },
    };
  },
  rest(_cut, args) {
    const lighter = args.detailLevel === "full_xml" || args.detailLevel === "medline_text"
      ? " or a lighter detailLevel (abstract_plus or citation_data)"
      : "";
    return `ask for fewer PMIDs${lighter}.`;
  },
  render: (r) =>
    textBlock(
      `${count(r.articles.length, "PubMed record")} of ${r.requestedPmids.length} requested (${r.detailLevel}).`,
      r.notFoundPmids.length > 0 && `notFoundPmids: ${r.notFoundPmids.join(", ")}`,
      r.articles.flatMap(articleSection),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    ),
  paging: offsetPaging(PAGES),
});
