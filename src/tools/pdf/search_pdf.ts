/**
 * search_pdf: the spec's contract (file_exists / query_exists / matches / error) plus total_matches,
 * page_count and match_details. Missing files and unreadable PDFs are results, not tool errors, as the
 * contract says; names that try to be paths are INVALID_INPUT (naming pdf_name) so a model learns at
 * once that it must pass a plain name, and a well-formed name that is simply absent is file_exists:false.
 */
import { z } from "zod";
import { invalidInput } from "../../core/errors.ts";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { normalizeQuery } from "../../sources/pdf/normalize.ts";
import { assertPdfName } from "../../sources/pdf/pdf_name.ts";
import { pdfLibrary } from "../../sources/pdf/pdf_library.ts";
import { searchDocument } from "../../sources/pdf/search.ts";
import { PDF_NAME_DESCRIPTION, SAMPLE_PDF } from "./shared.ts";

const input = z.object({
  pdf_name: z.string().min(1).max(255).describe(PDF_NAME_DESCRIPTION),
  query: z.string().min(1).max(1000).describe(
    "Text to find: a word or an exact phrase. Case, accents written as combined or separate characters, " +
      "ligatures (ﬁ = fi), line breaks, repeated spaces and words hyphenated across lines do not matter.",
  ),
  context_length: z.number().int().min(0).max(20000).default(2000).describe(
    "Characters of context per match, half before and half after the match (0–20000, default 2000)",
  ),
  topk: z.number().int().min(1).max(100).default(10).describe(
    "Most matches returned, first ones in document order (1–100, default 10); total_matches counts all",
  ),
});

const output = z.object({
  file_exists: z.boolean().describe("False when PDF_ROOT has no PDF of that name (call list_pdfs)"),
  query_exists: z.boolean().describe("True when the query occurs at least once"),
  matches: z.array(z.string()).describe("Context of each match, the match wrapped in **…**, in document order"),
  error: z.string().optional().describe("Why the PDF could not be searched (corrupt, password, scanned, limits)"),
  total_matches: z.number().int().describe("All occurrences in the document (matches holds at most topk)"),
  page_count: z.number().int().describe("Pages in the PDF (0 when it could not be opened)"),
  match_details: z.array(z.object({
    page: z.number().int().describe("1-based page of the match"),
    offset: z.number().int().describe(
      "Character offset of the match in the document text (the pdf://files/{name} resource; pages separated by \\f)",
    ),
  })).describe("Page and offset of each entry of matches, same order"),
});

type Output = z.input<typeof output>;

export const searchPdf = defineTool({
  name: "search_pdf",
  title: "Search a local PDF",
  toolset: "pdf",
  description: "Find a word or phrase in a PDF stored in the server's PDF folder (PDF_ROOT) and get the " +
    "passages around it. Returns {file_exists, query_exists, matches[], total_matches, page_count, " +
    "match_details[{page, offset}]}: each match is about context_length characters of the PDF's own text, " +
    "half before and half after, the hit wrapped in **…**, at most topk in document order. Matching ignores " +
    "case, ligatures, line breaks and end-of-line hyphenation. Only PDFs in PDF_ROOT can be searched, by " +
    "name: call list_pdfs first if you do not know the names; file_exists:false means no such PDF. A PDF that " +
    "cannot be read (corrupt, password-protected, scanned without text, over the size/page/time limits) " +
    "gives file_exists:true with an error saying why. For papers online use the papers tools instead. " +
    `Example: {"pdf_name":"${SAMPLE_PDF}","query":"heparin","context_length":300,"topk":3}`,
  input,
  output,
  annotations: READS_LOCAL,
  examples: [
    { pdf_name: SAMPLE_PDF, query: "heparin", context_length: 300, topk: 3 },
    { pdf_name: SAMPLE_PDF, query: "pulmonary embolism" },
  ],
  async run(args, ctx): Promise<Output> {
    assertPdfName(args.pdf_name);
    if (!normalizeQuery(args.query)) {
      throw invalidInput("query", "has no searchable characters (only spaces or invisible characters)", args.query);
    }
    const outcome = await pdfLibrary(ctx).open(args.pdf_name, {
      signal: ctx.signal,
      log: ctx.log,
      onProgress: (done, total) => void ctx.progress(done, total, `extracting ${args.pdf_name}.pdf`),
    });
    const empty = { query_exists: false, matches: [], total_matches: 0, match_details: [] };
    if (outcome.status === "missing") return { file_exists: false, page_count: 0, ...empty };
    if (outcome.status === "failed") {
      return { file_exists: true, page_count: outcome.pageCount, error: outcome.message, ...empty };
    }
    const found = searchDocument(outcome.doc, args.query, args.context_length, args.topk);
    return {
      file_exists: true,
      query_exists: found.total > 0,
      matches: found.matches.map((m) => m.context),
      total_matches: found.total,
      page_count: outcome.doc.pageCount,
      match_details: found.matches.map((m) => ({ page: m.page, offset: m.offset })),
    };
  },
  render(result) {
    if (!result.file_exists) return "No PDF of that name in PDF_ROOT (file_exists: false). Call list_pdfs for names.";
    if (result.error) return `The PDF could not be searched: ${result.error}`;
    if (!result.query_exists) return `Not found in the PDF (${result.page_count} pages).`;
    const shown = result.matches.map((m, i) => `[${i + 1}] page ${result.match_details[i].page}:\n${m}`);
    return `${result.total_matches} matches in ${result.page_count} pages; showing ${result.matches.length}:\n\n` +
      shown.join("\n\n");
  },
});
