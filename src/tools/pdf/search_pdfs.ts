/**
 * search_pdfs: one query across every PDF in PDF_ROOT, through the same library (text caches, extractor
 * pool) as search_pdf. Files come back ranked by their number of matches, each with its first passages;
 * files that cannot be read are listed with the reason, so a model knows what was not searched.
 */
import { z } from "zod";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { normalizeQuery } from "../../sources/pdf/normalize.ts";
import { pdfLibrary, unreadableWarning } from "../../sources/pdf/pdf_library.ts";
import { searchDocument } from "../../sources/pdf/search.ts";
import { contextLength, emptyQuery, passage, QUERY_DESCRIPTION } from "./shared.ts";

const input = z.object({
  query: z.string().min(1).max(1000).describe(QUERY_DESCRIPTION),
  context_length: contextLength(300),
  per_file: z.number().int().min(1).max(20).default(3).describe(
    "Passages per PDF",
  ),
});

const output = z.object({
  query_exists: z.boolean().describe("True when some PDF contains the query"),
  total_matches: z.number().int().describe("Occurrences over all PDFs searched"),
  files_searched: z.number().int().describe("PDFs whose text was searched"),
  files: z.array(z.object({
    pdf_name: z.string().describe("Pass to search_pdf for more passages"),
    page_count: z.number().int().describe("Pages in the PDF"),
    total_matches: z.number().int().describe("Occurrences in this PDF"),
    passages: z.array(z.object({
      page: z.number().int().describe("1-based page of the hit"),
      offset: z.number().int().describe("Offset of the hit in the pdf://files/{name} text"),
      text: z.string().describe("The hit in **…** with its context"),
    })).describe("The first per_file hits in document order"),
    warning: z.string().optional().describe("Damaged pages that were skipped"),
  })).describe("PDFs with at least one match, most matches first"),
  not_searched: z.array(z.object({
    pdf_name: z.string().describe("The PDF"),
    error: z.string().describe("Why it could not be searched"),
  })).describe(
    "PDFs that could not be read, and why",
  ),
  truncated: z.boolean().describe("True when PDF_ROOT holds more PDFs than one search covers"),
});

export const searchPdfs = defineTool({
  name: "search_pdfs",
  title: "Search every local PDF",
  toolset: "pdf",
  description: "Find a word or phrase in every local PDF (PDF_ROOT) at once: match counts per PDF, most " +
    "first, each with its first per_file passages and pages; unreadable PDFs listed with the reason. Same " +
    "matching as search_pdf. " +
    'Example: {"query":"heparin"}',
  input,
  output,
  annotations: READS_LOCAL,
  examples: [{ query: "heparin" }, { query: "pulmonary embolism", context_length: 200, per_file: 2 }],
  async run(args, ctx) {
    if (!normalizeQuery(args.query)) throw emptyQuery(args.query);
    const library = pdfLibrary(ctx);
    const { files, truncated } = await library.files();
    const found: z.input<typeof output>["files"] = [];
    const notSearched: { pdf_name: string; error: string }[] = [];
    let searched = 0;
    for (const [i, file] of files.entries()) {
      await ctx.progress(i, files.length, `searching ${file.name}.pdf`);
      if (!(await library.mayContain(file, args.query, { log: ctx.log }))) {
        searched++; // its trigram filter rules the query out: nothing to open
        continue;
      }
      const outcome = await library.openFile(file, { signal: ctx.signal, log: ctx.log });
      if (outcome.status === "missing") continue;
      if (outcome.status === "failed") {
        notSearched.push({ pdf_name: file.name, error: outcome.message });
        continue;
      }
      searched++;
      const hits = searchDocument(outcome.doc, args.query, args.context_length, args.per_file);
      if (hits.total === 0) continue;
      const warning = unreadableWarning(outcome.doc.pageCount, outcome.doc.unreadable);
      found.push({
        pdf_name: file.name,
        page_count: outcome.doc.pageCount,
        total_matches: hits.total,
        passages: hits.matches.map((m) => ({ page: m.page, offset: m.offset, text: m.context })),
        ...(warning ? { warning } : {}),
      });
    }
    found.sort((a, b) => b.total_matches - a.total_matches || a.pdf_name.localeCompare(b.pdf_name));
    const total = found.reduce((n, f) => n + f.total_matches, 0);
    return {
      query_exists: total > 0,
      total_matches: total,
      files_searched: searched,
      files: found,
      not_searched: notSearched,
      truncated,
    };
  },
  render(result) {
    const lines = [
      `## ${result.total_matches} matches in ${result.files.length} of ${result.files_searched} PDFs searched` +
      (result.truncated ? " (PDF_ROOT holds more PDFs than one search covers)" : ""),
    ];
    for (const f of result.files) {
      lines.push("", `### ${f.pdf_name}.pdf — ${f.total_matches} matches, ${f.page_count} pages`);
      if (f.warning) lines.push(`warning: ${f.warning}`);
      for (const p of f.passages) lines.push(passage(p.page, p.offset, p.text));
    }
    if (result.not_searched.length) {
      lines.push("", "### Not searched");
      for (const n of result.not_searched) lines.push(`- ${n.pdf_name}.pdf: ${n.error}`);
    }
    return lines.join("\n");
  },
});
