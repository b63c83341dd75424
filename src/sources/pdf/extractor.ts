/**
 * PLACEHOLDER until the search_pdf work lands: the worker-backed PdfExtractor. The exported name and
 * signature are the contract fetch_content relies on.
 */
import type { ToolContext } from "../../core/tool_def.ts";
import { PdfExtractionError, type PdfExtractor } from "./types.ts";

/** The runtime's shared extractor (one worker pool per server). */
export function pdfExtractor(ctx: Pick<ToolContext, "shared" | "config">): PdfExtractor {
  return ctx.shared("pdf-extractor", () => ({
    extract: () => Promise.reject(new PdfExtractionError("corrupt", "PDF extraction is not wired yet")),
    close: () => Promise.resolve(),
  }));
}
