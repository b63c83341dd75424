/** The errors for documents over the configured limits, worded the same wherever a limit is checked. */
import { PdfExtractionError } from "./types.ts";

export function tooManyBytes(size: number, maxBytes: number): PdfExtractionError {
  return new PdfExtractionError(
    "too_large",
    `The PDF is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)} (PDF_MAX_BYTES).`,
  );
}

export function tooManyPages(pageCount: number, maxPages: number): PdfExtractionError {
  return new PdfExtractionError(
    "too_large",
    `The PDF has ${pageCount} pages, over the limit of ${maxPages} pages (PDF_MAX_PAGES).`,
    pageCount,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
