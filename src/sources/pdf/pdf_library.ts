/**
 * The PDFs under PDF_ROOT as searchable documents: locate (confined) → memory cache → disk cache →
 * extract in the extractor pool → index. Documents are keyed by real path + size + mtime, so an edited
 * file is extracted again and a renamed one is not. Concurrent requests for one document share one
 * extraction. Failures are remembered by the same key (a hostile file costs one extraction, not one per
 * call); a timeout only for a while, since it may have been the machine's load.
 */
import { type Clock, systemClock } from "../../core/clock.ts";
import type { Logger } from "../../core/log.ts";
import type { ToolContext } from "../../context.ts";
import { DiskTextCache, type Verdict } from "./disk_cache.ts";
import { workerExtractor } from "./extractor.ts";
import { ByteBudgetCache } from "./memory_cache.ts";
import { release } from "./release.ts";
import {
  listPdfFolders,
  locatePdfIn,
  MAX_LISTED,
  MAX_SEARCHED,
  type PdfFile,
  type PdfFilePage,
  readPdfBytes,
} from "./pdf_files.ts";
import type { SearchIndex } from "./normalize.ts";
import { documentBytes, documentText, indexDocument, type PdfDocument } from "./search.ts";
import { mayContain, type QueryTrigrams, queryTrigrams, type TrigramFilter, trigramFilter } from "./trigram_filter.ts";
import { PdfExtractionError, type PdfExtractor, type PdfFailure, type PdfProbe, type UnreadablePage } from "./types.ts";

/** Memory budget of extracted documents (about 30 books of 350 pages). */
export const TEXT_CACHE_BYTES = 256 * 1024 * 1024;
/** Memory budget of the trigram filters of documents not in memory (a 2-page paper's is 2 KiB). */
const FILTER_CACHE_BYTES = 32 * 1024 * 1024;
/** Listing stops probing files after this long; the rest report page_count null. */
const LIST_PROBE_BUDGET_MS = 10_000;
/** How long a timeout is remembered before the next search tries the PDF again. */
export const TIMEOUT_VERDICT_MS = 10 * 60_000;
/** Indexed documents {@link PdfLibrary.openMatching} reads ahead of its caller (disk reads in flight). */
const READ_AHEAD = 8;
/**
 * Files whose trigram filters it checks ahead: a filter not in memory is a small disk read, and 1,000 of
 * them cost 160 ms awaited one by one against 35 ms with many in flight.
 */
const CHECK_AHEAD = 64;

/** What a search knows of a document before opening it (see PdfLibrary.#admits). */
type Admission = "no" | "indexed" | "unknown";

/** One file of {@link PdfLibrary.openMatching}: no outcome when its trigram filter rules the query out. */
export interface MatchingFile {
  file: PdfFile;
  outcome?: OpenOutcome;
}

export type OpenOutcome =
  | { status: "missing" }
  | { status: "failed"; file: PdfFile; reason: PdfFailure; message: string; pageCount: number }
  | { status: "ready"; file: PdfFile; doc: PdfDocument };

type Cached =
  | { status: "ready"; doc: PdfDocument }
  | { status: "failed"; reason: PdfFailure; message: string; pageCount: number; until?: number };

/** A file that vanished or became unreadable between locating and reading it: not cached. */
type Loaded = Cached | { status: "missing" };

export interface CallContext {
  signal?: AbortSignal;
  log?: Logger;
  /** Progress of an extraction this call started. */
  onProgress?: (done: number, total: number) => void;
  /** The call reads several documents in a row (PdfExtractOptions.oneOfMany). */
  oneOfMany?: boolean;
}

export interface PdfListing {
  file: PdfFile;
  pageCount: number | null;
  error?: string;
  /** Pages that cannot be read (search skips them), worded as search_pdf words it. */
  warning?: string;
}

/** An extractor that may also probe page trees and build search indexes off the server's thread. */
export type IndexingExtractor = PdfExtractor & {
  index?(text: string, options?: { signal?: AbortSignal }): Promise<SearchIndex>;
};

export interface LibraryOptions {
  root: string;
  /** The paper library (LIBRARY_DIR), read after root: a name in root hides the same name here. */
  library?: string;
  maxBytes: number;
  extractor: IndexingExtractor;
  cacheDir?: string;
  memoryBytes?: number;
  clock?: Clock;
}

/** The runtime's shared library (caches live as long as the server). */
export function pdfLibrary(ctx: Pick<ToolContext, "shared" | "config" | "clock" | "log">): PdfLibrary {
  return ctx.shared("pdf-library", () =>
    new PdfLibrary({
      root: ctx.config.pdf.root,
      library: ctx.config.pdf.library,
      maxBytes: ctx.config.pdf.maxBytes,
      cacheDir: ctx.config.cacheDir,
      extractor: workerExtractor(ctx),
      clock: ctx.clock,
    }));
}

/** The warning for a document with unreadable pages: one wording for list_pdfs, search_pdf and search_pdfs. */
export function unreadableWarning(
  pageCount: number,
  unreadable: readonly UnreadablePage[] | undefined,
): string | undefined {
  if (!unreadable?.length) return undefined;
  const pages = unreadable.map((u) => u.page);
  const shown = pages.length > 12 ? `${pages.slice(0, 12).join(", ")}, …` : pages.join(", ");
  return `${pages.length} of ${pageCount} pages cannot be read and were skipped (page ${shown}: ` +
    `${unreadable[0].reason}); the other pages were searched.`;
}

export class PdfLibrary {
  readonly #options: LibraryOptions;
  readonly #clock: Clock;
  readonly #memory: ByteBudgetCache<Cached>;
  readonly #disk?: DiskTextCache;
  readonly #inFlight = new Map<string, Promise<Loaded>>();
  readonly #probes = new Map<string, PdfProbe>();
  readonly #filters = new ByteBudgetCache<TrigramFilter>(FILTER_CACHE_BYTES);
  /** The disk cache's filters snapshot, loaded once; the keys it held. */
  #snapshot?: Promise<ReadonlySet<string>>;
  #calls = 0;

  constructor(options: LibraryOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#memory = new ByteBudgetCache(options.memoryBytes ?? TEXT_CACHE_BYTES);
    if (options.cacheDir) this.#disk = new DiskTextCache(options.cacheDir);
  }

  /**
   * Whether a document is being opened: indexing ahead pauses meanwhile (index_ahead.ts), so a call for a
   * document never shares the extractors with background work. (A listing may probe files, which starts
   * an extractor anyway.)
   */
  get busy(): boolean {
    return this.#calls > 0;
  }

  /** The file called `name` in PDF_ROOT or the library (INVALID_INPUT for names that are not plain names). */
  locate(name: string): Promise<PdfFile | undefined> {
    return locatePdfIn(this.#roots(), name);
  }

  /** Reads a located file within the byte limit (PDF_MAX_BYTES). */
  read(file: PdfFile): Promise<Uint8Array> {
    return readPdfBytes(file, this.#options.maxBytes);
  }

  /** Opens `name` (INVALID_INPUT for names that are not plain names). */
  async open(name: string, call: CallContext = {}): Promise<OpenOutcome> {
    const file = await locatePdfIn(this.#roots(), name);
    if (!file) return { status: "missing" };
    return await this.openFile(file, call);
  }

  /** Opens a file found by {@link files} or {@link open}. */
  async openFile(file: PdfFile, call: CallContext = {}): Promise<OpenOutcome> {
    this.#calls++;
    try {
      const key = keyOf(file);
      const loaded = this.#remembered(key) ?? await abortable(this.#load(key, file, call), call.signal);
      return loaded.status === "missing" ? loaded : { ...loaded, file };
    } finally {
      this.#calls--;
    }
  }

  /**
   * Indexes `file` into the disk cache unless a verdict for this version is there already, without keeping
   * its text in memory (index ahead: index_ahead.ts). Returns whether it extracted. Without a disk cache it
   * does nothing. Concurrent opens of the same file share the extraction.
   */
  async prepare(file: PdfFile, call: CallContext = {}): Promise<boolean> {
    if (!this.#disk) return false;
    await this.#loadFilters(call);
    const key = keyOf(file);
    if (this.#memory.get(key) || this.#filters.get(key)) return false;
    const verdict = await this.#disk.getVerdict(key, call.log);
    if (verdict) {
      // Known from an earlier run: its filter is kept, so the first search_pdfs reads no verdict from disk.
      if (verdict.trigrams) this.#keepFilter(key, Uint8Array.fromBase64(verdict.trigrams));
      return false;
    }
    const pending = this.#inFlight.get(key);
    if (pending) {
      await pending;
      return false;
    }
    const loaded = await this.#load(key, file, { ...call, keep: false });
    return loaded.status !== "missing";
  }

  /**
   * The files a search for any of `needles` must read, in order, each opened, or with no outcome when its
   * trigram filter (trigram_filter.ts, kept beside each indexed document in the disk cache and in memory)
   * says it cannot contain any of them: search_pdfs over a large library opens only what may match. Filters are checked up to {@link CHECK_AHEAD} files ahead of the caller and
   * documents known to the disk cache or memory read up to {@link READ_AHEAD} ahead, so their disk reads
   * overlap (a book's text is megabytes: few at a time); a document that needs extracting is
   * opened only when the caller reaches it, one at a time, so a search over new files starts no more
   * extractors than before. A caller that stops early (break, throw) leaves no read unhandled.
   */
  async *openMatching(
    files: readonly PdfFile[],
    needles: readonly string[],
    call: CallContext = {},
  ): AsyncGenerator<MatchingFile> {
    await this.#loadFilters(call);
    if (files.length > 1) call = { ...call, oneOfMany: true };
    const probes = needles.map(queryTrigrams);
    // Started ahead of the caller, dropped once yielded (an open may hold a document).
    const admissions: (Promise<Admission> | undefined)[] = [];
    const opens: (Promise<OpenOutcome | undefined> | undefined)[] = [];
    const admit = (j: number) => admissions[j] ??= quiet(this.#admits(keyOf(files[j]), probes, call));
    const open = (j: number) =>
      opens[j] ??= quiet(admit(j).then((a) => a === "indexed" ? this.openFile(files[j], call) : undefined));
    let checked = 0;
    let read = 0;
    for (let i = 0; i < files.length; i++) {
      while (checked < Math.min(files.length, i + CHECK_AHEAD)) admit(checked++);
      while (read < Math.min(files.length, i + READ_AHEAD)) open(read++);
      const file = files[i];
      const admission = await admit(i);
      const ahead = await open(i);
      admissions[i] = opens[i] = undefined;
      if (admission === "no") yield { file };
      else yield { file, outcome: ahead ?? await this.openFile(file, call) };
    }
  }

  /**
   * Whether the document keyed `key` may contain one of the queries: "no" when its filter rules them all
   * out, "indexed" when it may and is already in memory or the disk cache (cheap to open), "unknown" when
   * nothing is known of it (it must be extracted).
   */
  async #admits(
    key: string,
    probes: readonly QueryTrigrams[],
    call: CallContext,
  ): Promise<Admission> {
    let filter = this.#filters.get(key);
    if (!filter) {
      if (this.#memory.get(key)) return "indexed";
      if (!this.#disk) return "unknown";
      const verdict = await this.#disk.getVerdict(key, call.log);
      if (!verdict) return "unknown";
      if (!verdict.trigrams) return "indexed";
      filter = this.#keepFilter(key, Uint8Array.fromBase64(verdict.trigrams));
    }
    return probes.some((probe) => mayContain(filter, probe)) ? "indexed" : "no";
  }

  /**
   * Writes the filters of `files` known in memory as the disk cache's snapshot (at the end of an index-ahead
   * pass), unless the snapshot already holds exactly those: a restarted server then loads them in one read.
   */
  async saveFilters(files: readonly PdfFile[], call: CallContext = {}): Promise<void> {
    if (!this.#disk) return;
    const saved = await this.#loadFilters(call);
    const filters: Record<string, string> = {};
    let count = 0;
    for (const file of files) {
      const key = keyOf(file);
      const filter = this.#filters.get(key);
      if (!filter) continue;
      filters[key] = filter.toBase64();
      count++;
    }
    if (count === saved.size && Object.keys(filters).every((key) => saved.has(key))) return;
    await this.#disk.setFilters(filters, call.log);
  }

  /** Loads the disk cache's filters snapshot into memory, once; resolves to the keys it held. */
  #loadFilters(call: CallContext): Promise<ReadonlySet<string>> {
    return this.#snapshot ??= (async () => {
      const filters = await this.#disk?.getFilters(call.log) ?? {};
      const loaded = new Set<string>();
      for (const [key, base64] of Object.entries(filters)) {
        try {
          if (!this.#filters.get(key)) this.#keepFilter(key, Uint8Array.fromBase64(base64));
          loaded.add(key);
        } catch {
          // not base64 (the checksum passed, so written so): that PDF's own verdict holds its filter
        }
      }
      return loaded;
    })();
  }

  #keepFilter(key: string, filter: TrigramFilter): TrigramFilter {
    this.#filters.set(key, filter, filter.byteLength + 128);
    return filter;
  }

  /**
   * The PDFs in PDF_ROOT and the library by name, `limit` (default: all search_pdfs covers, MAX_SEARCHED)
   * from `offset` on.
   */
  files(offset = 0, limit = MAX_SEARCHED): Promise<PdfFilePage> {
    return listPdfFolders(this.#roots(), offset, limit);
  }

  #roots(): string[] {
    const { root, library } = this.#options;
    return library && library !== root ? [root, library] : [root];
  }

  /**
   * The PDFs in PDF_ROOT with what is known about them: a remembered verdict (memory, then disk), else a
   * probe (open + page tree walk, no page content), which says what search would say about a damaged
   * page tree. Text-layer problems show once a search has read the text. With `probe: false` (resources/list,
   * which clients send on connecting) nothing unknown is probed, so listing never starts an extractor.
   */
  async list(
    call: CallContext & { probe?: boolean } = {},
    page: { offset?: number; limit?: number } = {},
  ): Promise<{ entries: PdfListing[]; total: number; truncated: boolean }> {
    const { files, total, truncated } = await this.files(page.offset ?? 0, page.limit ?? MAX_LISTED);
    const started = this.#clock.now();
    const entries: PdfListing[] = [];
    for (const file of files) {
      call.signal?.throwIfAborted();
      const inTime = call.probe !== false && this.#clock.now() - started < LIST_PROBE_BUDGET_MS;
      entries.push(await this.#describe(file, inTime, call));
    }
    return { entries, total, truncated };
  }

  /** The memory verdict for `key`, unless it is a timeout whose time is up. */
  #remembered(key: string): Cached | undefined {
    const cached = this.#memory.get(key);
    if (cached?.status === "failed" && cached.until !== undefined && this.#clock.now() >= cached.until) {
      this.#memory.delete(key);
      return undefined;
    }
    return cached;
  }

  #load(key: string, file: PdfFile, call: CallContext & { keep?: boolean }): Promise<Loaded> {
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#extract(key, file, call).finally(() => this.#inFlight.delete(key));
      // Callers that gave up (cancelled, deadline) stop awaiting: their failure must not go unhandled.
      pending.catch(() => {});
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * Runs without the caller's signal: others may be waiting for the same document. With `keep: false`
   * the document is only written to the disk cache, not kept in memory.
   */
  async #extract(key: string, file: PdfFile, call: CallContext & { keep?: boolean }): Promise<Loaded> {
    let result: Cached;
    try {
      // A document whose filter is kept was indexed whole (only those have one): no verdict to read.
      const verdict = this.#filters.get(key) ? undefined : await this.#disk?.getVerdict(key, call.log);
      if (verdict?.status === "failed" && verdict.failure) {
        result = { status: "failed", ...verdict.failure, pageCount: verdict.pageCount };
        this.#memory.set(key, result, 1024);
        return result;
      }
      const stored = await this.#disk?.get(key, call.log);
      const doc = stored ? indexDocument(stored.text, stored.index) : await this.#extractAndIndex(key, file, call);
      result = { status: "ready", doc };
      call.log?.debug("PDF opened", { pdf: file.name, pages: doc.pageCount, from_disk_cache: Boolean(stored) });
    } catch (error) {
      if (isUnreadable(error)) return { status: "missing" };
      if (!(error instanceof PdfExtractionError)) throw error;
      result = this.#remember(key, error);
      call.log?.info("PDF could not be extracted", { pdf: file.name, reason: error.reason });
      if (lasting(error)) await this.#disk?.setVerdict(key, verdictOf(result), call.log);
      return result;
    }
    if (call.keep !== false) this.#memory.set(key, result, documentBytes(result.doc));
    return result;
  }

  /** Remembers a failure; a timeout only for {@link TIMEOUT_VERDICT_MS} (the machine may have been busy). */
  #remember(key: string, error: PdfExtractionError): Extract<Cached, { status: "failed" }> {
    const result: Extract<Cached, { status: "failed" }> = {
      status: "failed",
      reason: error.reason,
      message: error.message,
      pageCount: error.pageCount ?? 0,
    };
    if (error.reason === "timeout") result.until = this.#clock.now() + TIMEOUT_VERDICT_MS;
    this.#memory.set(key, result, 1024);
    return result;
  }

  async #extractAndIndex(key: string, file: PdfFile, call: CallContext): Promise<PdfDocument> {
    const extractor = this.#options.extractor;
    const bytes = await readPdfBytes(file, this.#options.maxBytes);
    const { index, ...text } = await extractor.extract(bytes, {
      onProgress: call.onProgress,
      index: true,
      oneOfMany: call.oneOfMany,
    }).finally(() => release(bytes));
    const doc = indexDocument(text, index ?? (extractor.index ? await extractor.index(documentText(text)) : undefined));
    if (!this.#disk) return doc;
    const filter = this.#keepFilter(key, trigramFilter(doc.index.text));
    await this.#disk.set(key, { text, index: doc.index }, call.log);
    await this.#disk.setVerdict(key, {
      status: "ready",
      pageCount: doc.pageCount,
      unreadable: doc.unreadable,
      trigrams: filter.toBase64(),
    }, call.log);
    return doc;
  }

  async #describe(file: PdfFile, mayProbe: boolean, call: CallContext): Promise<PdfListing> {
    const key = keyOf(file);
    const cached = this.#remembered(key);
    if (cached?.status === "ready") return listing(file, cached.doc.pageCount, cached.doc.unreadable);
    if (cached?.status === "failed") return { file, pageCount: cached.pageCount || null, error: cached.message };
    const probed = this.#probes.get(key);
    if (probed) return listing(file, probed.pageCount, probed.unreadable);
    const verdict = await this.#disk?.getVerdict(key, call.log);
    if (verdict?.failure) return { file, pageCount: verdict.pageCount || null, error: verdict.failure.message };
    if (verdict) return listing(file, verdict.pageCount, verdict.unreadable);
    const extractor = this.#options.extractor;
    if (!mayProbe || !extractor.probe) return { file, pageCount: null };
    try {
      const bytes = await readPdfBytes(file, this.#options.maxBytes);
      const probe = await extractor.probe(bytes, { signal: call.signal }).finally(() => release(bytes));
      this.#probes.set(key, probe);
      return listing(file, probe.pageCount, probe.unreadable);
    } catch (error) {
      if (error instanceof PdfExtractionError) {
        // What search would answer, so it is remembered for search too.
        const failed = this.#remember(key, error);
        if (lasting(error)) await this.#disk?.setVerdict(key, verdictOf(failed), call.log);
        return { file, pageCount: failed.pageCount || null, error: failed.message };
      }
      if (isUnreadable(error)) return { file, pageCount: null };
      throw error;
    }
  }
}

function listing(file: PdfFile, pageCount: number, unreadable?: UnreadablePage[]): PdfListing {
  const warning = unreadableWarning(pageCount, unreadable);
  return warning ? { file, pageCount, warning } : { file, pageCount };
}

/**
 * Failures worth keeping on disk across restarts: not a timeout (the machine's load), nor a configured
 * limit (PDF_MAX_PAGES/PDF_MAX_BYTES may be raised before the next start).
 */
function lasting(error: PdfExtractionError): boolean {
  return error.reason !== "timeout" && !/PDF_MAX_(PAGES|BYTES)/.test(error.message);
}

function verdictOf(failed: Extract<Cached, { status: "failed" }>): Verdict {
  return { status: "failed", pageCount: failed.pageCount, failure: { reason: failed.reason, message: failed.message } };
}

function isUnreadable(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied ||
    error instanceof Deno.errors.NotCapable;
}

/** The promise, with its rejection marked handled: it is awaited later, unless its caller stops first. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
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
