/** PDF bytes → plain text through the shared worker-backed extractor (or an injected one). */
import type { ToolContext } from "../../tool_def.ts";
import { pdfExtractor } from "../../../sources/pdf/extractor.ts";
import { PdfExtractionError } from "../../../sources/pdf/types.ts";
import { papersDeps } from "../deps.ts";

/** True when the bytes start like a PDF (`%PDF-`, possibly after a little junk, as the spec tolerates). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-");
}

/**
 * Pages joined by blank lines. The bytes are copied before the transfer to the worker: the original may
 * be shared with the upstream response cache.
 */
export async function pdfToText(ctx: ToolContext, bytes: Uint8Array, label: string): Promise<string> {
  const extractor = papersDeps(ctx).extractor ?? pdfExtractor(ctx);
  await ctx.progress(0, 1, `extracting text from ${label} (${Math.round(bytes.byteLength / 1024)} KiB PDF)`);
  const result = await extractor.extract(bytes.slice(), {
    signal: ctx.signal,
    maxPages: ctx.config.pdf.maxPages,
    timeoutMs: ctx.config.pdf.timeoutMs,
    onProgress: (done, total) => void ctx.progress(done, total, `extracting ${label}: page ${done} of ${total}`),
  });
  await ctx.progress(result.pageCount, result.pageCount, `extracted ${result.pageCount} pages from ${label}`);
  const text = result.pages.map((p) => p.trim()).filter(Boolean).join("\n\n");
  if (!text) throw new PdfExtractionError("no_text", "the PDF has no text layer (scanned?)");
  return text;
}
