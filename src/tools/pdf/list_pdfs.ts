/**
 * list_pdfs: what search_pdf can search. A tool rather than only resources because discovery is the
 * model's step (it needs a name before it can call search_pdf), and most MCP clients show resources to
 * the user, not to the model; the same PDFs are also resources (pdf_resource.ts) for hosts that attach
 * a document's full text.
 */
import { z } from "../../core/zod.ts";
import { cursorBinding, decodeCursor, encodeCursor, offsetPaging } from "../../core/envelope.ts";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { formatBytes } from "../../sources/pdf/limits.ts";
import { libraryRecords } from "../../sources/pdf/paper_library.ts";
import { pdfLibrary } from "../../sources/pdf/pdf_library.ts";
import { linesThatFit, nextCallLine, outputBudget } from "./budget.ts";
import { extractorNote } from "./extractor_note.ts";
import { cursor, nextCall, pdfUri } from "./shared.ts";

/** PDFs per page (each may be probed, which opens the file). */
export const LIST_PAGE_SIZE = 100;

const output = z.object({
  pdfs: z.array(z.object({
    name: z.string().describe("Pass as search_pdf's pdf_name"),
    size_bytes: z.number().int().describe("File size"),
    page_count: z.number().int().nullable().describe("Pages; null when the file could not be opened or counted"),
    uri: z.string().describe("MCP resource with the PDF's extracted text"),
    error: z.string().optional().describe("Why the PDF cannot be searched, when it cannot"),
    warning: z.string().optional().describe("Pages search will skip (damaged page tree)"),
    title: z.string().optional().describe("Saved paper's title"),
    ids: z.record(z.string(), z.string()).optional().describe("Saved paper's ids"),
  })).describe("PDFs in PDF_ROOT and the library on this page, by name"),
  total: z.number().int().describe("PDFs in PDF_ROOT and the library, over all pages"),
  first: z.number().int().optional().describe("1-based position of this page's first PDF"),
  truncated: z.boolean().describe("True when more PDFs follow this page (see next_cursor)"),
  warnings: z.array(z.string()).optional().describe("E.g. a wait for a PDF extractor to start"),
  next_cursor: z.string().optional().describe("Pass as cursor for the next PDFs"),
  next: nextCall,
});

type Output = z.input<typeof output>;

export const listPdfs = defineTool({
  name: "list_pdfs",
  title: "List local PDFs",
  toolset: "pdf",
  description: "PDFs in PDF_ROOT and the library: name (search_pdf's pdf_name), size, pages, saved papers' title " +
    `and ids, why one cannot be read, pdf://files/{name}. ${LIST_PAGE_SIZE} per page. Example: {}`,
  input: z.object({ cursor }),
  output,
  annotations: READS_LOCAL,
  examples: [{}],
  async run(args, ctx): Promise<Output> {
    const binding = await cursorBinding("list_pdfs", {});
    const offset = decodeCursor(args.cursor, binding, "list_pdfs");
    const { value: listing, note } = await extractorNote(
      ctx,
      () => pdfLibrary(ctx).list({ signal: ctx.signal, log: ctx.log }, { offset, limit: LIST_PAGE_SIZE }),
    );
    const saved = listing.entries.some((e) => e.file.library)
      ? await libraryRecords(ctx.config.pdf.library)
      : new Map();
    const pdfs: Output["pdfs"] = listing.entries.map((e) => {
      const record = e.file.library ? saved.get(e.file.name) : undefined;
      const ids = record?.ids &&
        Object.fromEntries(Object.entries(record.ids).filter(([, v]) => typeof v === "string"));
      return {
        name: e.file.name,
        size_bytes: e.file.size,
        page_count: e.pageCount,
        uri: pdfUri(e.file.name),
        ...(e.error ? { error: e.error } : {}),
        ...(e.warning ? { warning: e.warning } : {}),
        ...(record?.title ? { title: record.title } : {}),
        ...(ids && Object.keys(ids).length ? { ids: ids as Record<string, string> } : {}),
      };
    });
    const pageFor = (shown: number): Output => {
      const next = offset + shown < listing.total ? encodeCursor(offset + shown, binding) : undefined;
      return {
        pdfs: pdfs.slice(0, shown),
        total: listing.total,
        ...(shown > 0 && shown < listing.total ? { first: offset + 1 } : {}),
        truncated: next !== undefined,
        ...(note ? { warnings: [note] } : {}),
        ...(next ? { next_cursor: next, next: { tool: "list_pdfs", arguments: { cursor: next } } } : {}),
      };
    };
    const budget = outputBudget(ctx);
    let shown = linesThatFit(render(pageFor(0)).length + 200, pdfs.map((p) => entryLines(p).join("\n")), budget);
    while (shown > 1 && render(pageFor(shown)).length > budget) shown--;
    return pageFor(Math.min(shown, pdfs.length));
  },
  render,
  // A page the output budget cut goes on after the PDFs kept (#31).
  paging: offsetPaging({
    tool: "list_pdfs",
    path: "pdfs",
    defining: () => ({}),
    trim: (r: Output) => ({ ...r, truncated: true }),
  }),
});

function render(result: Output): string {
  if (result.total === 0) return "No PDFs in PDF_ROOT or the library (save_paper adds papers to it).";
  const range = result.pdfs.length < result.total && result.first !== undefined
    ? ` (${result.first}–${result.first + result.pdfs.length - 1} here)`
    : "";
  const library = result.pdfs.some((p) => p.title || p.ids) ? " and the library" : "";
  const lines = [`## ${result.total} PDFs in PDF_ROOT${library}${range}`];
  for (const warning of result.warnings ?? []) lines.push(`warning: ${warning}`);
  for (const p of result.pdfs) lines.push(...entryLines(p));
  if (result.next) lines.push(nextCallLine(result.next.tool, result.next.arguments));
  return lines.join("\n");
}

function entryLines(p: Output["pdfs"][number]): string[] {
  const lines = [
    `- ${p.name} — ${p.page_count ?? "?"} pages, ${formatBytes(p.size_bytes)} (${p.size_bytes} bytes), ${p.uri}`,
  ];
  if (p.title || p.ids) {
    const ids = Object.entries(p.ids ?? {}).map(([k, v]) => `${k} ${v}`).join(", ");
    lines.push(`  library: ${p.title ?? "(untitled)"}${ids ? ` (${ids})` : ""}`);
  }
  if (p.error) lines.push(`  error: ${p.error}`);
  if (p.warning) lines.push(`  warning: ${p.warning}`);
  return lines;
}
