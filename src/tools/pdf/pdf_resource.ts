/**
 * `pdf://files/{name}`: the extracted text of each PDF in PDF_ROOT, listed with page count and size, for
 * hosts that let a user attach a whole document. Its text is exactly the text search_pdf's offsets
 * index: pages in order, separated by a form feed (\f).
 */
import { ToolError } from "../../core/errors.ts";
import { MAX_RESULT_BYTES } from "../../core/invoke.ts";
import type { ResourceDef } from "../tool_def.ts";
import { formatBytes } from "../../sources/pdf/limits.ts";
import { assertPdfName } from "../../sources/pdf/pdf_name.ts";
import { pdfLibrary } from "../../sources/pdf/pdf_library.ts";
import { pdfUri, SAMPLE_PDF } from "./shared.ts";

export const pdfTextResource: ResourceDef = {
  toolset: "pdf",
  name: "pdf-text",
  title: "Local PDF text",
  description: "Plain text extracted from a PDF in the server's PDF folder (PDF_ROOT), pages separated by a " +
    "form feed; the offsets in search_pdf's match_details index this text. To find passages use search_pdf. " +
    `Example URI: ${pdfUri(SAMPLE_PDF)}`,
  mimeType: "text/plain",
  uriTemplate: "pdf://files/{name}",
  async list(ctx) {
    const { entries } = await pdfLibrary(ctx).list({ signal: ctx.signal, log: ctx.log, probe: false });
    return entries.map((e) => ({
      uri: pdfUri(e.file.name),
      name: e.file.name,
      title: `${e.file.name}.pdf`,
      description: `PDF, ${e.pageCount ?? "?"} pages, ${formatBytes(e.file.size)}` +
        (e.error ? `; cannot be read: ${e.error}` : "") + (e.warning ? `; ${e.warning}` : ""),
      mimeType: "text/plain",
    }));
  },
  async read(uri, params, ctx) {
    const name = params.name ?? "";
    assertPdfName(name);
    const outcome = await pdfLibrary(ctx).open(name, { signal: ctx.signal, log: ctx.log });
    if (outcome.status === "missing") {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `There is no PDF named '${name}' in PDF_ROOT.`,
        "List the available PDFs with resources/list or the list_pdfs tool.",
      );
    }
    if (outcome.status === "failed") {
      throw new ToolError("NOT_AVAILABLE", outcome.message, "This PDF cannot be read; choose another one.");
    }
    if (outcome.doc.text.length * 2 > MAX_RESULT_BYTES) {
      throw new ToolError(
        "PAYLOAD_TOO_LARGE",
        `The text of ${name}.pdf is too large to return whole (${outcome.doc.pageCount} pages).`,
        `Use search_pdf on "${name}" to get the passages you need.`,
      );
    }
    return [{ uri, mimeType: "text/plain", text: outcome.doc.text }];
  },
};
