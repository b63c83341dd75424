/**
 * The PDF text extraction contract shared by search_pdf and fetch_content. Extraction runs in a worker
 * (src/sources/pdf/extractor.ts), so a long document never blocks other requests.
 */

export interface PdfText {
  pageCount: number;
  /** Extracted text of each page, in order (page 1 first). */
  pages: string[];
}

export type PdfFailure =
  | "empty" // zero bytes
  | "corrupt" // not a PDF or unreadable structure
  | "password" // needs a password
  | "circular" // page tree loops
  | "no_text" // no text layer (scanned)
  | "too_large" // over PDF_MAX_BYTES or PDF_MAX_PAGES
  | "timeout"; // over PDF_TIMEOUT_MS

/** A PDF that cannot be turned into text; `message` is specific and fit to show a caller. */
export class PdfExtractionError extends Error {
  override name = "PdfExtractionError";
  /** Page count when the document opened before failing (e.g. over PDF_MAX_PAGES). */
  readonly pageCount?: number;
  constructor(readonly reason: PdfFailure, message: string, pageCount?: number) {
    super(message);
    this.pageCount = pageCount;
  }
}

export interface PdfExtractOptions {
  signal?: AbortSignal;
  maxPages?: number;
  timeoutMs?: number;
  /** Called now and then during a long extraction with pages done so far. */
  onProgress?: (done: number, total: number) => void;
}

export interface PdfExtractor {
  /** Extracts text; rejects with PdfExtractionError for bad documents. The bytes are transferred. */
  extract(bytes: Uint8Array, options?: PdfExtractOptions): Promise<PdfText>;
  /** Opens the document only, for its page count (listing); optional for other implementations. */
  countPages?(bytes: Uint8Array, options?: PdfExtractOptions): Promise<number>;
  close(): Promise<void>;
}
