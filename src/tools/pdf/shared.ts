/** Wording, fields and rendering shared by the pdf toolset's tools and resources. */
import { z } from "npm:zod@4.6.7";
import { invalidInput, type ToolError } from "../../core/errors.ts";

/** The sample paper shipped in files/ (see files/README.md): every example uses it. */
export const SAMPLE_PDF = "dvt_prophylaxis_review";

export const PDF_NAME_DESCRIPTION = "PDF name as list_pdfs shows it, without '.pdf' or folders";

/** `pdf://files/{name}`: the extracted text of one PDF. */
export function pdfUri(name: string): string {
  return `pdf://files/${encodeURIComponent(name)}`;
}

/** The matching rules, said once for search_pdf and search_pdfs. */
export const QUERY_DESCRIPTION = "Word or exact phrase; case, accents, ligatures and line breaks do not matter. " +
  "A query hyphen matches a hyphen or a line-end break, never nothing";

/** context_length: at most this many characters per match, the hit and its markers included. */
export function contextLength(fallback: number) {
  return z.number().int().min(20).max(20000).default(fallback).describe(
    "Most characters per match, hit included",
  );
}

export function emptyQuery(query: string): ToolError {
  return invalidInput("query", "has no searchable characters (only spaces or invisible characters)", query);
}

/** One passage as a Markdown list item: its page, then the text on one line. */
export function passage(page: number, offset: number, text: string): string {
  return `- p. ${page} (offset ${offset}): ${text.replace(/\s+/g, " ").trim()}`;
}
