/** Wording, fields and rendering shared by the pdf toolset's tools and resources. */
import { z } from "../../core/zod.ts";
import { editDistance } from "../../core/argument_hints.ts";
import { invalidInput, type ToolError } from "../../core/errors.ts";
import type { PdfQuery } from "../../sources/pdf/query.ts";
import type { PdfDocument } from "../../sources/pdf/search.ts";

/** The sample paper shipped in files/ (see files/README.md): every example uses it. */
export const SAMPLE_PDF = "dvt_prophylaxis_review";

export const PDF_NAME_DESCRIPTION = "As list_pdfs shows it: no '.pdf', no folders";

/** `pdf://files/{name}`: the extracted text of one PDF. */
export function pdfUri(name: string): string {
  return `pdf://files/${encodeURIComponent(name)}`;
}

/** The matching rules, said once for search_pdf and search_pdfs. */
export const QUERY_DESCRIPTION = 'Word or "quoted phrase": exact, any case or accents; several words: ranked passages';

/** context_length: the most characters of one passage; hits close together share one (#34). */
export function contextLength(fallback: number) {
  return z.number().int().min(20).max(20000).default(fallback).describe(
    "Characters per passage; near hits share one",
  );
}

/** The cursor input of a pdf tool. */
export const cursor = z.string().max(512).optional().describe("next_cursor");

/** The next call, as data beside the literal text instruction. */
export const nextCall = z.object({
  tool: z.string().describe("Tool to call"),
  arguments: z.record(z.string(), z.unknown()).describe("Its arguments, cursor included"),
}).optional().describe("The call that returns the next page; absent on the last page");

export function emptyQuery(query: string): ToolError {
  return invalidInput("query", "has no searchable characters (only spaces or invisible characters)", query);
}

/** One passage as a Markdown list item: its page and hit offsets, then the text on one line. */
export function passage(page: number, offsets: readonly number[], text: string): string {
  const where = offsets.length === 1 ? `offset ${offsets[0]}` : `offsets ${offsets.join(", ")}`;
  return `- p. ${page} (${where}): ${text.replace(/\s+/g, " ").trim()}`;
}

/** What to try after a search that found nothing (`words`: the query words that were looked for). */
export function noMatchHint(query: PdfQuery, scope: "pdf" | "all"): string {
  const elsewhere = scope === "pdf"
    ? "search_pdfs searches every PDF; list_pdfs names them"
    : "list_pdfs names the PDFs";
  if (query.mode === "words") {
    return `None of the words ${query.words.map((w) => w.word).join(", ")} occur. Try other words, a synonym or ` +
      `abbreviation, or another spelling; ${elsewhere}.`;
  }
  const words = query.phrase.trim().split(/\s+/).length;
  const unquote = words > 1 ? "Drop the quotes to rank passages by the words they contain, or try fewer words; " : "";
  return `${unquote}Try another spelling, a synonym, a shorter word stem or an abbreviation; ${elsewhere}.`;
}

/** Below this many non-blank characters per page a document's text is sparse (see sparseTextNote). */
const SPARSE_CHARS_PER_PAGE = 16;

/** For a search that found nothing: a note when the document has little text at all (maybe scanned pages). */
export function sparseTextNote(doc: PdfDocument): string {
  const chars = doc.text.replace(/\s+/g, "").length;
  if (chars >= SPARSE_CHARS_PER_PAGE * doc.pageCount) return "";
  return `This PDF holds only ${chars} characters of text on ${doc.pageCount} page(s): pages without a text layer ` +
    "(scanned images) cannot be searched; run OCR on it (e.g. ocrmypdf) to search them.";
}

/**
 * The names in `names` nearest to a name that matched no PDF (#34): those containing it or contained in it,
 * then those within a few edits, closest first, at most `limit`.
 * @example nearestNames("dvt_prophylaxis_reveiw", ["dvt_prophylaxis_review", "tracemonkey"]) // ["dvt_prophylaxis_review"]
 */
export function nearestNames(wanted: string, names: readonly string[], limit = 3): string[] {
  const fold = (s: string) => s.toLowerCase().replace(/\.pdf$/, "").replace(/[\s_-]+/g, "");
  const w = fold(wanted);
  if (!w) return [];
  const scored = names.map((name) => {
    const n = fold(name);
    const distance = n.includes(w) || w.includes(n) ? 0.5 : editDistance(w, n);
    return { name, distance };
  });
  const allowed = Math.max(2, Math.floor(w.length / 3));
  return scored.filter((s) => s.distance <= allowed)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}
