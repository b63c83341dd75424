/**
 * list_pdfs: what search_pdf can search. A tool rather than only resources because discovery is the
 * model's step (it needs a name before it can call search_pdf), and most MCP clients show resources to
 * the user, not to the model; the same PDFs are also resources (pdf_resource.ts) for hosts that attach
 * a document's full text.
 */
import { z } from "zod";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { MAX_LISTED } from "../../sources/pdf/pdf_files.ts";
import { pdfLibrary } from "../../sources/pdf/pdf_library.ts";
import { pdfUri, SAMPLE_PDF } from "./shared.ts";

const output = z.object({
  pdfs: z.array(z.object({
    name: z.string().describe("Pass as search_pdf's pdf_name"),
    size_bytes: z.number().int().describe("File size"),
    page_count: z.number().int().nullable().describe("Pages; null when the file could not be opened or counted"),
    uri: z.string().describe("MCP resource with the PDF's extracted text"),
    error: z.string().optional().describe("Why the PDF cannot be searched, when it cannot"),
  })).describe("PDFs in PDF_ROOT, by name"),
  total: z.number().int().describe("Number of PDFs listed"),
  truncated: z.boolean().describe(
    `True when the folder holds more than ${MAX_LISTED} PDFs and only the first are listed`,
  ),
});

export const listPdfs = defineTool({
  name: "list_pdfs",
  title: "List local PDFs",
  toolset: "pdf",
  description: "List the PDFs in the server's PDF folder (PDF_ROOT) that search_pdf can search. Returns " +
    "{pdfs:[{name, size_bytes, page_count, uri, error?}], total, truncated}; pass name as search_pdf's " +
    "pdf_name; uri is the MCP resource holding the PDF's whole extracted text. An error entry means search_pdf " +
    "will report the same reason (e.g. password-protected). " +
    `Takes no arguments; lists at most ${MAX_LISTED} files. Example: {} → a pdfs entry named "${SAMPLE_PDF}"`,
  input: z.object({}),
  output,
  annotations: READS_LOCAL,
  examples: [{}],
  async run(_args, ctx) {
    const { entries, truncated } = await pdfLibrary(ctx).list({ signal: ctx.signal, log: ctx.log });
    return {
      pdfs: entries.map((e) => ({
        name: e.file.name,
        size_bytes: e.file.size,
        page_count: e.pageCount,
        uri: pdfUri(e.file.name),
        ...(e.error ? { error: e.error } : {}),
      })),
      total: entries.length,
      truncated,
    };
  },
  render(result) {
    if (result.total === 0) return "No PDFs in PDF_ROOT.";
    const lines = result.pdfs.map((p) =>
      `${p.name} — ${p.page_count ?? "?"} pages, ${Math.ceil(p.size_bytes / 1024)} KB${p.error ? ` (${p.error})` : ""}`
    );
    return `${result.total} PDFs${result.truncated ? " (first ones only)" : ""}:\n${lines.join("\n")}`;
  },
});
