/** Output pieces shared by the papers tools, and the F-1 completeness check. */
import { z } from "../../core/zod.ts";
import { count, fieldLines, inlineList, type Lines, textBlock, warningLines } from "../../render/markdown.ts";
import { untrustedField } from "../../render/untrusted.ts";
import { type NextCall, nextCallLine } from "../../core/next_call.ts";

export const sourceSchema = z.enum(["arxiv", "openalex"]);

export const warningSchema = z.object({
  code: z.string().describe("PartialSuccess, OpenAlexBudget, OpenAlexKeyMissing, DeprecatedConcept, ..."),
  message: z.string(),
});
export type Warning = z.infer<typeof warningSchema>;

export const paperSchema = z.object({
  id: z.string().describe(
    "arXiv id with version (2104.12255v1) or OpenAlex work id (W2741809807): fetch_content takes it",
  ),
  title: z.string().nullable(),
  authors: z.array(z.string()),
  date: z.string().nullable().describe("YYYY-MM-DD: arXiv first submission, OpenAlex publication date"),
  pdf_url: z.string().nullable(),
  cited_by_count: z.number().int().optional(),
  doi: z.string().optional(),
  venue: z.string().optional().describe("Journal, conference, repository or preprint server"),
  ids: z.object({
    arxiv: z.string().optional(),
    openalex: z.string().optional(),
    pmid: z.string().optional(),
    pmcid: z.string().optional(),
    doi: z.string().optional(),
  }).optional().describe("The ids other tools take (fetch_content, fetchArticleDetails, convert_article_ids)"),
  sources: z.array(z.string()).optional().describe("source=all: every source that has it; id is the first's"),
  preprint: z.boolean().optional().describe("true: not peer-reviewed (bioRxiv, medRxiv, ...)"),
  retracted: z.boolean().optional().describe("true: the record says the paper was retracted"),
  retraction_notice: z.string().optional(),
  abstract: z.string().optional().describe("The abstract's start (about 300 characters, a cut ends with …)"),
});
export type Paper = z.infer<typeof paperSchema>;

export const paperListSchema = z.object({
  source: sourceSchema,
  papers: z.array(paperSchema),
  total: z.number().int().optional().describe(
    "How many papers match upstream (more than returned when count is lower)",
  ),
  warnings: z.array(warningSchema).optional(),
});

/** Share of complete records below which a PartialSuccess warning is added (F-1). */
export const COMPLETE_SHARE = 0.9;

/**
 * F-1: a PartialSuccess warning when fewer than 90 % of papers have a title, at least one author and a date.
 * @example partialSuccess([{ id: "W1", title: null, authors: [], date: null, pdf_url: null }], "OpenAlex")
 */
export function partialSuccess(papers: Paper[], sourceName: string): Warning | undefined {
  if (papers.length === 0) return undefined;
  const noTitle = papers.filter((p) => !p.title).length;
  const noAuthors = papers.filter((p) => p.authors.length === 0).length;
  const noDate = papers.filter((p) => !p.date).length;
  const incomplete = papers.filter((p) => !p.title || p.authors.length === 0 || !p.date).length;
  if ((papers.length - incomplete) / papers.length >= COMPLETE_SHARE) return undefined;
  const why = [
    noAuthors ? `${noAuthors} without authors` : "",
    noTitle ? `${noTitle} without a title` : "",
    noDate ? `${noDate} without a date` : "",
  ].filter(Boolean).join(", ");
  return {
    code: "PartialSuccess",
    message: `${incomplete} of ${papers.length} papers (${Math.round((100 * incomplete) / papers.length)} %) ` +
      `lack complete metadata (${why}): ${sourceName} has no such data for them; they are returned as they are.`,
  };
}

/**
 * The upstream stopped before the count asked for (and before the total it reported): the papers are
 * real but fewer than promised, so the caller is told rather than handed a short list as complete.
 */
export function partialResult(shortfall: string): Warning {
  return { code: "PartialResult", message: `${shortfall}; retry later for the rest.` };
}

/** Authors shown in a text block; the structured result keeps every one. */
const SHOWN_AUTHORS = 10;

/**
 * One paper of a listing, the same in every papers tool: a heading with the id first, then its fields, the
 * abstract fenced as retrieved text.
 * @example paperLines({ id: "W1", title: "T", authors: ["A"], date: "2020-01-01", pdf_url: null })
 *   // ["", "## W1: T", "authors: A", "date: 2020-01-01"]
 */
export function paperLines(p: Paper): Lines {
  // A retracted record's title often starts with "RETRACTED" already: say it once.
  const flag = p.retracted && !/^retracted\b/i.test(p.title ?? "") ? "RETRACTED — " : "";
  return [
    "",
    `## ${p.id}: ${flag}${p.title ?? "(untitled)"}`,
    ...fieldLines(p, {
      omit: ["id", "title"],
      format: {
        authors: (authors: string[]) => {
          if (authors.length <= SHOWN_AUTHORS) return undefined;
          const shown = authors.slice(0, SHOWN_AUTHORS);
          return `authors: ${inlineList(shown) ?? shown.join("; ")} +${authors.length - SHOWN_AUTHORS} more`;
        },
        retracted: (retracted: boolean) =>
          retracted ? `retracted: true${p.retraction_notice ? ` (notice ${p.retraction_notice})` : ""}` : [],
        retraction_notice: () => [],
        preprint: (preprint: boolean) => (preprint ? "preprint: true (not peer-reviewed)" : []),
        // The heading already shows the id and the doi line the DOI: only the other ids are news.
        ids: (ids: Record<string, string>) => {
          const others = Object.entries(ids).filter(([, v]) => v !== p.id && v !== p.doi);
          return others.length ? `ids: ${others.map(([k, v]) => `${k}: ${v}`).join("; ")}` : [];
        },
        abstract: (text: string, key) => untrustedField(text, key),
      },
    }),
  ];
}

/**
 * The text block of a paper list: a summary line, what was searched (category, topic used), warnings, then
 * a heading per paper with its fields.
 */
export function renderPapers(
  result: { papers: Paper[]; total?: number; warnings?: Warning[]; next_cursor?: string; next?: NextCall },
): string {
  const { papers, total, warnings, next_cursor: _cursor, next, ...searched } = result;
  return textBlock(
    `${count(papers.length, "paper")}${total === undefined ? "" : ` of ${total}`}.`,
    fieldLines(searched),
    warningLines(warnings),
    papers.flatMap(paperLines),
    "",
    nextCallLine(next, "cursor") ?? "last page",
  );
}

/** A notice about a work (src/sources/works/updates.ts): a correction, an expression of concern, a retraction. */
export const updateSchema = z.object({
  type: z.string(),
  id: z.string().optional(),
  date: z.string().optional(),
  source: z.enum(["Crossref", "PubMed"]),
});
