/**
 * The text engines that extractors run, by name and version: part of every disk cache key, so text made
 * by another engine or version is never served as this one's (tests/sources/pdf/disk_cache_test.ts
 * checks the versions against deno.json's import map). PDFium reads first; pdf.js reads what PDFium
 * cannot (jobs.ts).
 */
export const PDF_ENGINE = { name: "@embedpdf/pdfium", version: "2.15.1" } as const;
export const PDF_FALLBACK_ENGINE = { name: "pdfjs-dist", version: "6.5.438" } as const;

/** The failure message of a document that needs a user password (either engine). */
export const PASSWORD_MESSAGE = "The PDF is password-protected: it cannot be opened without its user password. " +
  "Save a copy without the password (e.g. qpdf --decrypt --password=... in.pdf out.pdf) and search that.";

/** The refusal of a document whose extraction went over the extractor's memory budget (`budgetMb`, in MiB). */
export function memoryMessage(budgetMb: number): string {
  return `Extracting the PDF needed more than ${budgetMb} MB of memory and was stopped: the PDF is ` +
    "probably a decompression bomb (a small compressed stream that inflates to gigabytes) or damaged.";
}
