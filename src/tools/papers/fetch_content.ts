/** fetch_content: a paper's metadata and full text (HTML, ar5iv or PDF), in pages of max_chars. */
import { z } from "npm:zod@4.6.7";
import { invalidInput } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { normalizeArxivId } from "../../sources/arxiv/ids.ts";
import { parseArticleId } from "../../sources/idconv/ids.ts";
import { normalizeWorkId } from "../../sources/openalex/ids.ts";
import { arxivContent } from "./content/arxiv_content.ts";
import { chunkText } from "./content/chunk.ts";
import { openalexContent } from "./content/openalex_content.ts";
import { biomedContent, biomedKey } from "./content/pmc_content.ts";
import { textCache } from "./content/text_cache.ts";
import type { ContentDoc } from "./content/types.ts";
import { warningSchema } from "./schemas.ts";
import { fieldLines, textBlock, warningLines } from "../../render/markdown.ts";

const contentSource = z.enum(["arxiv", "openalex", "pubmed"]);
type ContentSource = z.infer<typeof contentSource>;

/**
 * Default page size. The result carries the text twice (structuredContent and the text block), and
 * clients cut tool output near 25k tokens: 30,000 characters (~7.5k tokens, ~15k for both copies) leaves
 * room for metadata and escaping. Up to 100,000 on request.
 */
export const DEFAULT_MAX_CHARS = 30_000;
export const MAX_MAX_CHARS = 100_000;

const input = z.object({
  source: contentSource.describe("pubmed: PMID, PMCID or DOI"),
  id: z.string().trim().min(1).max(300).describe("arXiv id or URL, OpenAlex W id, PMID, PMCID, DOI"),
  offset: z.number().int().min(0).default(0).describe("0, then next_offset"),
  max_chars: z.number().int().min(1000).max(MAX_MAX_CHARS).default(DEFAULT_MAX_CHARS).describe("Characters per page"),
});

const output = z.object({
  source: contentSource,
  id: z.string().describe("Canonical id (arXiv with version, PMCID, or PMID:n for an abstract)"),
  title: z.string().nullable(),
  authors: z.array(z.string()),
  date: z.string().nullable(),
  updated: z.string().optional(),
  abstract: z.string().optional(),
  doi: z.string().optional(),
  pdf_url: z.string().optional(),
  url: z.string().describe("Landing page of the paper"),
  categories: z.array(z.string()).optional(),
  journal_ref: z.string().optional(),
  comment: z.string().optional(),
  venue: z.string().optional(),
  type: z.string().optional(),
  cited_by_count: z.number().int().optional(),
  content_format: z.enum(["html", "ar5iv", "pdf", "jats", "abstract"]).describe(
    "Where the text came from: jats = PubMed Central, abstract = PubMed abstract only",
  ),
  content_url: z.string(),
  text: z.string().describe("Plain text: # headings, blank lines between paragraphs, math as $TeX$, references last"),
  offset: z.number().int(),
  returned_chars: z.number().int(),
  total_chars: z.number().int(),
  next_offset: z.number().int().optional().describe("Pass as offset for the next page; absent on the last page"),
  warnings: z.array(warningSchema).optional(),
});

export const fetchContent = defineTool({
  name: "fetch_content",
  title: "Full text of a paper",
  toolset: "papers",
  description: "A paper's metadata and full text (arXiv, OpenAlex, PubMed Central; else the PubMed abstract), " +
    'paged by next_offset. Example: {"source":"pubmed","id":"PMC3299399"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { source: "arxiv", id: "2501.11120v1" },
    { source: "arxiv", id: "2501.11120v1", offset: 30000 },
    { source: "pubmed", id: "PMC3299399" },
    { source: "pubmed", id: "27797938" },
  ],
  async run(args, ctx) {
    const { key, load } = loader(args.source, args.id, ctx);
    const { doc, cached } = await textCache(ctx).get(key, load);
    if (args.offset > 0 && args.offset >= doc.text.length) {
      throw invalidInput(
        "offset",
        `is past the end of the text (total_chars ${doc.text.length})`,
        args.offset,
        "Start again at offset 0, or stop: the previous page had no next_offset.",
      );
    }
    const chunk = chunkText(doc.text, args.offset, args.max_chars);
    // Budget and key notices describe requests; a cached page made none.
    const warnings = cached ? doc.warnings.filter((w) => !w.code.startsWith("OpenAlex")) : doc.warnings;
    return {
      source: args.source,
      ...doc.meta,
      content_format: doc.format,
      content_url: doc.contentUrl,
      text: chunk.text,
      offset: chunk.offset,
      returned_chars: chunk.text.length,
      total_chars: doc.text.length,
      ...(chunk.end < doc.text.length ? { next_offset: chunk.end } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  },
  render: (r) => {
    const { title, abstract, text, offset, returned_chars, total_chars, next_offset, warnings, ...meta } = r;
    return textBlock(
      `# ${title ?? "(untitled)"}`,
      fieldLines(meta),
      `page: offset ${offset}, returned_chars ${returned_chars}, total_chars ${total_chars}`,
      next_offset === undefined ? "last page" : `next page: call again with offset=${next_offset}`,
      warningLines(warnings),
      abstract && ["", "## abstract", abstract],
      ["", `## text (characters ${offset}-${offset + returned_chars})`, text],
    );
  },
});

function loader(
  source: ContentSource,
  raw: string,
  ctx: ToolContext,
): { key: string; load: () => Promise<ContentDoc> } {
  if (source === "pubmed") {
    const id = parseArticleId(raw);
    if (!id) {
      throw invalidInput(
        "id",
        "not a PMID, PMCID or DOI",
        raw,
        normalizeArxivId(raw)
          ? "That is an arXiv id: call with source=arxiv."
          : normalizeWorkId(raw)
          ? "That is an OpenAlex work id: call with source=openalex."
          : "Use a PMID (22416237), a PMCID (PMC3299399) or a DOI (10.3389/fpsyt.2012.00018).",
      );
    }
    return { key: biomedKey(id), load: () => biomedContent(ctx, id) };
  }
  if (source === "arxiv") {
    const id = normalizeArxivId(raw);
    if (!id) {
      throw invalidInput(
        "id",
        "not an arXiv id",
        raw,
        normalizeWorkId(raw)
          ? "That is an OpenAlex work id: call with source=openalex."
          : parseArticleId(raw)
          ? "That is a PMID, PMCID or DOI: call with source=pubmed."
          : "Use an id such as 2104.12255, 2104.12255v1 or hep-th/9901001.",
      );
    }
    return { key: `arxiv:${id}`, load: () => arxivContent(ctx, id) };
  }
  const id = normalizeWorkId(raw);
  if (!id) {
    throw invalidInput(
      "id",
      "not an OpenAlex work id",
      raw,
      normalizeArxivId(raw)
        ? "That is an arXiv id: call with source=arxiv."
        : parseArticleId(raw)
        ? "That is a PMID, PMCID or DOI: call with source=pubmed."
        : "Use an id such as W2741809807.",
    );
  }
  return { key: `openalex:${id}`, load: () => openalexContent(ctx, id) };
}
