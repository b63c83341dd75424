/**
 * The PDFs under PDF_ROOT as searchable documents: locate (confined) → memory cache → disk cache →
 * extract in a worker → index. Documents are keyed by real path + size + mtime, so an edited file is
 * extracted again and a renamed one is not. Concurrent requests for one document share one extraction.
 */
import type { Logger } from "../../core/log.ts";
import type { ToolContext } from "../../context.ts";
import { DiskTextCache } from "./disk_cache.ts";
import { workerExtractor } from "./extractor.ts";
import { ByteBudgetCache } from "./memory_cache.ts";
import { listPdfFiles, locatePdf, type PdfFile, readPdfBytes } from "./pdf_files.ts";
import type { SearchIndex } from "./normalize.ts";
import { documentBytes, documentText, indexDocument, type PdfDocument } from "./search.ts";
import { PdfExtractionError, type PdfExtractor, type PdfFailure } from "./types.ts";

/** Memory budget of extracted documents (about 30 books of 350 pages). */
export const TEXT_CACHE_BYTES = 256 * 1024 * 1024;
/** Listing stops opening files for page counts after this long; the rest report page_count null. */
const LIST_COUNT_BUDGET_MS = 10_000;

export type OpenOutcome =
  | { status: "missing" }
  | { status: "failed"; file: PdfFile; reason: PdfFailure; message: string; pageCount: number }
  | { status: "ready"; file: PdfFile; doc: PdfDocument };

type Cached =
  | { status: "ready"; doc: PdfDocument }
  | { status: "failed"; reason: PdfFailure; message: string; pageCount: number };

/** A file that vanished or became unreadable between locating and reading it: not cached. */
type Loaded = Cached | { status: "missing" };

export interface CallContext {
  signal?: AbortSignal;
  log?: Logger;
  /** Progress of an extraction this call started. */
  onProgress?: (done: number, total: number) => void;
}

export interface PdfListing {
  file: PdfFile;
  pageCount: number | null;
  error?: string;
}

/** An extractor that may also build search indexes off the main thread (the worker extractor does). */
export type IndexingExtractor = PdfExtractor & {
  index?(text: string, options?: { signal?: AbortSignal }): Promise<SearchIndex>;
};

export interface LibraryOptions {
  root: string;
  maxBytes: number;
  extractor: IndexingExtractor;
  cacheDir?: string;
  memoryBytes?: number;
}

/** The runtime's shared library (caches live as long as the server). */
export function pdfLibrary(ctx: Pick<ToolContext, "shared" | "config">): PdfLibrary {
  return ctx.shared("pdf-library", () =>
    new PdfLibrary({
      root: ctx.config.pdf.root,
      maxBytes: ctx.config.pdf.maxBytes,
      cacheDir: ctx.config.cacheDir,
      extractor: workerExtractor(ctx),
    }));
}

export class PdfLibrary {
  readonly #options: LibraryOptions;
  readonly #memory: ByteBudgetCache<Cached>;
  readonly #disk?: DiskTextCache;
  readonly #inFlight = new Map<string, Promise<Loaded>>();
  readonly #pageCounts = new Map<string, number>();

  constructor(options: LibraryOptions) {
    this.#options = options;
    this.#memory = new ByteBudgetCache(options.memoryBytes ?? TEXT_CACHE_BYTES);
    if (options.cacheDir) this.#disk = new DiskTextCache(options.cacheDir);
  }

  /** Opens `name` (INVALID_INPUT for names that are not plain names). */
  async open(name: string, call: CallContext = {}): Promise<OpenOutcome> {
    const file = await locatePdf(this.#options.root, name);
    if (!file) return { status: "missing" };
    const key = keyOf(file);
    const loaded = this.#memory.get(key) ?? await abortable(this.#load(key, file, call), call.signal);
    return loaded.status === "missing" ? loaded : { ...loaded, file };
  }

  /** The PDFs in PDF_ROOT with their page counts (from the caches, else by opening each one). */
  async list(call: CallContext = {}): Promise<{ entries: PdfListing[]; truncated: boolean }> {
    const { files, truncated } = await listPdfFiles(this.#options.root);
    const started = Date.now();
    const entries: PdfListing[] = [];
    for (const file of files) {
      call.signal?.throwIfAborted();
      const inTime = Date.now() - started < LIST_COUNT_BUDGET_MS;
      entries.push(await this.#describe(file, inTime, call));
    }
    return { entries, truncated };
  }

  #load(key: string, file: PdfFile, call: CallContext): Promise<Loaded> {
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#extract(key, file, call).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  /** Runs without the caller's signal: others may be waiting for the same document. */
  async #extract(key: string, file: PdfFile, call: CallContext): Promise<Loaded> {
    let result: Cached;
    try {
      const stored = await this.#disk?.get(key, call.log);
      const doc = stored ? indexDocument(stored.text, stored.index) : await this.#extractAndIndex(key, file, call);
      result = { status: "ready", doc };
      call.log?.debug("PDF opened", { pdf: file.name, pages: doc.pageCount, from_disk_cache: Boolean(stored) });
    } catch (error) {
      if (isUnreadable(error)) return { status: "missing" };
      if (!(error instanceof PdfExtractionError)) throw error;
      result = { status: "failed", reason: error.reason, message: error.message, pageCount: error.pageCount ?? 0 };
      call.log?.info("PDF could not be extracted", { pdf: file.name, reason: error.reason });
    }
    // A timeout may be the machine's load, not the document's fault: the next search tries again.
    if (result.status === "ready") this.#memory.set(key, result, documentBytes(result.doc));
    else if (result.reason !== "timeout") this.#memory.set(key, result, 1024);
    return result;
  }

  async #extractAndIndex(key: string, file: PdfFile, call: CallContext): Promise<PdfDocument> {
    const extractor = this.#options.extractor;
    const bytes = await readPdfBytes(file, this.#options.maxBytes);
    const text = await extractor.extract(bytes, { onProgress: call.onProgress });
    const doc = indexDocument(text, extractor.index ? await extractor.index(documentText(text)) : undefined);
    await this.#disk?.set(key, { text, index: doc.index }, call.log);
    return doc;
  }

  async #describe(file: PdfFile, mayOpen: boolean, call: CallContext): Promise<PdfListing> {
    const key = keyOf(file);
    const cached = this.#memory.get(key);
    if (cached?.status === "ready") return { file, pageCount: cached.doc.pageCount };
    if (cached?.status === "failed") return { file, pageCount: cached.pageCount || null, error: cached.message };
    const known = this.#pageCounts.get(key);
    if (known !== undefined) return { file, pageCount: known };
    const extractor = this.#options.extractor;
    if (!mayOpen || !extractor.countPages) return { file, pageCount: null };
    try {
      const bytes = await readPdfBytes(file, this.#options.maxBytes);
      const pageCount = await extractor.countPages(bytes, { signal: call.signal });
      this.#pageCounts.set(key, pageCount);
      return { file, pageCount };
    } catch (error) {
      if (error instanceof PdfExtractionError) {
        return { file, pageCount: error.pageCount ?? null, error: error.message };
      }
      if (isUnreadable(error)) return { file, pageCount: null };
      throw error;
    }
  }
}

function isUnreadable(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied ||
    error instanceof Deno.errors.NotCapable;
}

function keyOf(file: PdfFile): string {
  return `${file.path}\u0000${file.size}\u0000${file.mtimeMs}`;
}

/** The promise, or its caller's cancellation, whichever comes first. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
