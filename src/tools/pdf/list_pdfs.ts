/**
 * list_pdfs: what search_pdf can search. A tool rather than only resources because discovery is the
 * model's step (it needs a name before it can call search_pdf), and most MCP clients show resources to
 * the user, not to the model; the same PDFs are also resources (pdf_resource.ts) for hosts that attach
 * a document's full text.
 */
import { z } from "npm:zod@4.6.7";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { formatBytes } from "../../sources/pdf/limits.ts";
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
    warning: z.string().optional().describe("Pages search will skip (damaged page tree)"),
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
  description: "List the PDFs in the server's PDF folder (PDF_ROOT): name (pass it as pdf_name to search_pdf), " +
    "size, page count, an error when search_pdf cannot read it (same reason search_pdf gives), a warning when " +
    "some pages are damaged, and the pdf://files/{name} resource with its text. Cheap: opens no page content; " +
    `problems found only in the text show after a first search. At most ${MAX_LISTED} files. ` +
    `Example: {} → an entry "${SAMPLE_PDF}"`,
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
        ...(e.warning ? { warning: e.warning } : {}),
      })),
      total: entries.length,
      truncated,
    };
  },
  render(result) {
    if (result.total === 0) return "No PDFs in PDF_ROOT.";
    const lines = [`## ${result.total} PDFs in PDF_ROOT${result.truncated ? ` (first ${MAX_LISTED} only)` : ""}`];
    for (const p of result.pdfs) {
      const pages = `${p.page_count ?? "?"} pages`;
      lines.push(`- ${p.name} — ${pages}, ${formatBytes(p.size_bytes)} (${p.size_bytes} bytes), ${p.uri}`);
      if (p.error) lines.push(`  error: ${p.error}`);
      if (p.warning) lines.push(`  warning: ${p.warning}`);
    }
    return lines.join("\n");
  },
});
