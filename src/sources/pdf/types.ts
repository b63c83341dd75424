/**
 * The PDF text extraction contract shared by search_pdf and fetch_content. Extraction runs in separate
 * processes (src/sources/pdf/extractor.ts), so a long or hostile document never blocks or bloats the server.
 */

import type { SearchIndex } from "./normalize.ts";

export interface PdfText {
  pageCount: number;
  /** Extracted text of each page, in order (page 1 first); an unreadable page is an empty string. */
  pages: string[];
  /** Pages the engine could not read (a damaged page tree or content), salvaged around; absent when none. */
  unreadable?: UnreadablePage[];
  /** The search index of the pages joined by a form feed, when extraction was asked to build it. */
  index?: SearchIndex;
  /**
   * The engine that read the text: "pdfium", or "pdf.js" for a document PDFium could not read or read
   * badly ("pdfium+pdf.js" when the parts of a split document differ). Absent for text from elsewhere.
   */
  engine?: string;
}

export interface UnreadablePage {
  page: number;
  /** The engine's reason, shortened. */
  reason: string;
}

export type PdfFailure =
  | "empty" // zero bytes
  | "corrupt" // not a PDF or unreadable structure
  | "password" // needs a password
  | "circular" // page tree loops
  | "no_text" // no text layer (scanned)
  | "too_large" // over PDF_MAX_BYTES, PDF_MAX_PAGES or the extractor's memory budget
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
  /** Also build the search index (in the extractor processes, each for its pages). */
  index?: boolean;
  /** Called now and then during a long extraction with pages done so far. */
  onProgress?: (done: number, total: number) => void;
  /**
   * One of several new documents read in a row (search_pdfs over a folder): never a light extractor, whose
   * slower pages would soon cost more than the optimisation it skips (worker_pool.ts, lightSlots).
   */
  oneOfMany?: boolean;
}

export interface PdfExtractor {
  /** Extracts text; rejects with PdfExtractionError for bad documents. The bytes are transferred. */
  extract(bytes: Uint8Array, options?: PdfExtractOptions): Promise<PdfText>;
  /**
   * Opens the document and walks its page tree without reading any page content (listing); optional for
   * other implementations. Rejects like extract for a document no page of which can be read.
   */
  probe?(bytes: Uint8Array, options?: PdfExtractOptions): Promise<PdfProbe>;
  close(): Promise<void>;
}

/** What opening a document and walking its page tree tells, without extracting text. */
export interface PdfProbe {
  pageCount: number;
  unreadable: UnreadablePage[];
}
