/**
 * search_pdf: the spec's contract (file_exists / query_exists / matches / error) plus total_matches,
 * page_count, match_details and warnings. Missing files and unreadable PDFs are results, not tool errors, as the
 * contract says; names that try to be paths are INVALID_INPUT (naming pdf_name) so a model learns at
 * once that it must pass a plain name, and a well-formed name that is simply absent is file_exists:false.
 */
import { z } from "npm:zod@4.6.7";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { normalizeQuery } from "../../sources/pdf/normalize.ts";
import { assertPdfName } from "../../sources/pdf/pdf_name.ts";
import { pdfLibrary, unreadableWarning } from "../../sources/pdf/pdf_library.ts";
import { searchDocument } from "../../sources/pdf/search.ts";
import { contextLength, emptyQuery, passage, PDF_NAME_DESCRIPTION, QUERY_DESCRIPTION, SAMPLE_PDF } from "./shared.ts";

const input = z.object({
  pdf_name: z.string().min(1).max(255).describe(PDF_NAME_DESCRIPTION),
  query: z.string().min(1).max(1000).describe(QUERY_DESCRIPTION),
  context_length: contextLength(2000),
  topk: z.number().int().min(1).max(100).default(10).describe(
    "Most matches returned",
  ),
});

const output = z.object({
  pdf_name: z.string().optional().describe("The PDF searched"),
  file_exists: z.boolean().describe("False when PDF_ROOT has no PDF of that name (call list_pdfs)"),
  query_exists: z.boolean().describe("True when the query occurs at least once"),
  matches: z.array(z.string()).describe("Each match in its context, the hit wrapped in **…**, in document order"),
  error: z.string().optional().describe("Why the PDF could not be searched (corrupt, password, scanned, limits)"),
  warnings: z.array(z.string()).optional().describe("E.g. damaged pages that were skipped"),
  total_matches: z.number().int().describe("All occurrences in the document (matches holds at most topk)"),
  page_count: z.number().int().describe("Pages in the PDF (0 when it could not be opened)"),
  match_details: z.array(z.object({
    page: z.number().int().describe("1-based page of the match"),
    offset: z.number().int().describe("Offset of the hit in the pdf://files/{name} text (pages joined by \\f)"),
  })).describe("Page and offset of each entry of matches, same order"),
});

type Output = z.input<typeof output>;

export const searchPdf = defineTool({
  name: "search_pdf",
  title: "Search a local PDF",
  toolset: "pdf",
  description: "Find a word or phrase in one local PDF (PDF_ROOT): passages with the hit in **…** and page " +
    "numbers, at most topk in document order; total_matches counts all. list_pdfs gives names; search_pdfs " +
    "searches all PDFs. file_exists:false = no such PDF; unreadable PDFs give an error. " +
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
    if (!normalizeQuery(args.query)) throw emptyQuery(args.query);
    const outcome = await pdfLibrary(ctx).open(args.pdf_name, {
      signal: ctx.signal,
      log: ctx.log,
      onProgress: (done, total) => void ctx.progress(done, total, `extracting ${args.pdf_name}.pdf`),
    });
    const pdf_name = args.pdf_name;
    const empty = { query_exists: false, matches: [], total_matches: 0, match_details: [] };
    if (outcome.status === "missing") return { pdf_name, file_exists: false, page_count: 0, ...empty };
    if (outcome.status === "failed") {
      return { pdf_name, file_exists: true, page_count: outcome.pageCount, error: outcome.message, ...empty };
    }
    const found = searchDocument(outcome.doc, args.query, args.context_length, args.topk);
    const warning = unreadableWarning(outcome.doc.pageCount, outcome.doc.unreadable);
    return {
      pdf_name,
      file_exists: true,
      query_exists: found.total > 0,
      matches: found.matches.map((m) => m.context),
      ...(warning ? { warnings: [warning] } : {}),
      total_matches: found.total,
      page_count: outcome.doc.pageCount,
      match_details: found.matches.map((m) => ({ page: m.page, offset: m.offset })),
    };
  },
  render(result) {
    const title = `## ${result.pdf_name ? `${result.pdf_name}.pdf` : "PDF"}`;
    if (!result.file_exists) return `${title}\nNo PDF of that name in PDF_ROOT. Call list_pdfs for the names.`;
    const lines = [title, `pages: ${result.page_count}`];
    if (result.error) return [...lines, `error: ${result.error}`].join("\n");
    for (const warning of result.warnings ?? []) lines.push(`warning: ${warning}`);
    lines.push(
      `matches: ${result.total_matches}${
        result.total_matches > result.matches.length ? ` (showing ${result.matches.length})` : ""
      }`,
    );
    result.matches.forEach((m, i) =>
      lines.push(passage(result.match_details[i].page, result.match_details[i].offset, m))
    );
    return lines.join("\n");
  },
});
