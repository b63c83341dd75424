/**
 * The pool-backed {@link PdfExtractor}: byte and page limits, a time budget per document, a memory
 * budget per extractor process, salvage of readable pages, and a check that the
 * document has a text layer at all. search_pdf, search_pdfs and fetch_content (papers) share one per server.
 */
import type { Config } from "../../config.ts";
import { type Clock, systemClock } from "../../core/clock.ts";
import type { Logger } from "../../core/log.ts";
import type { ToolContext } from "../../context.ts";
import { type ChannelFactory, processChannels, workerChannels } from "./extractor_process.ts";
import { startableDeno } from "./startable_deno.ts";
import { tooManyBytes } from "./limits.ts";
import { positionsOf } from "./raw_scan.ts";
import { assertTextLayer, hasImageXObject } from "./text_layer.ts";
import { joinIndexes, type SearchIndex } from "./normalize.ts";
import {
  PdfExtractionError,
  type PdfExtractOptions,
  type PdfExtractor,
  type PdfProbe,
  type PdfText,
  type UnreadablePage,
} from "./types.ts";
import type { FinalReply } from "./worker_protocol.ts";
import { type JobOptions, type JobRequest, WorkerPool } from "./worker_pool.ts";

/**
 * Documents with at least this many pages, in files of at least this many bytes, are shared by two
 * extractors (contiguous halves). Each extractor starts, loads its engine and parses the document and its
 * fonts on its own, and two busy processes slow each other down on a small machine. PDFium reads a
 * 352-page book in about 0.4 s of CPU, less than a second extractor costs, so only very long documents are
 * shared: splitting that book cost 2.3× the CPU of pdftotext and a longer wall time under load, one
 * extractor 2.1× (docs/benchmarks.md). The page count is judged from the file's bytes ({@link pageCountHint})
 * before any extractor sees it, so a shorter document never starts a second one only to hand it no pages.
 */
const SPLIT_MIN_PAGES = 1000;
const SPLIT_MIN_BYTES = 1024 * 1024;
/**
 * A document a light extractor may read (worker_pool.ts, PoolOptions.lightSlots): fewer pages than this
 * by its page-count hint, or, without one, a file under {@link LIGHT_MAX_BYTES_UNHINTED}; never over
 * {@link LIGHT_MAX_BYTES}.
 */
const LIGHT_MAX_PAGES = 60;
const LIGHT_MAX_BYTES = 8 * 1024 * 1024;
const LIGHT_MAX_BYTES_UNHINTED = 1536 * 1024;
/** Resident memory one extractor process may use (PDFium or pdf.js on a 350-page book stays well under 300 MiB). */
export const EXTRACTOR_MEMORY_MB = 768;

/** The runtime's shared extractor (one pool per server). */
export function pdfExtractor(ctx: Pick<ToolContext, "shared" | "config" | "log">): PdfExtractor {
  return workerExtractor(ctx);
}

/**
 * The same shared extractor, with its probing and off-thread indexing. Its time budgets run on
 * the system clock, not the runtime's: they bound real CPU work in another process, which a warped or
 * manual clock (tests of upstream pacing) must not cut short or stretch. Tests of the budgets themselves
 * pass a clock to {@link createPdfExtractor}.
 */
export function workerExtractor(ctx: Pick<ToolContext, "shared" | "config" | "log">): WorkerExtractor {
  return ctx.shared("pdf-extractor", () =>
    createPdfExtractor(ctx.config.pdf, {
      clock: systemClock,
      log: ctx.log,
      idleMs: ctx.config.pdf.extractorIdleMs,
    }));
}

export interface ExtractorOptions {
  /** Extractors in the pool; see {@link defaultPoolSize}. */
  poolSize?: number;
  idleMs?: number;
  log?: Logger;
  /** The clock of the time budgets (default: the system clock; see {@link workerExtractor}). */
  clock?: Clock;
  /** Page count from which a document is split across two extractors (default 1000). */
  splitMinPages?: number;
  /** File size from which a document is split across two extractors (default 1 MiB). */
  splitMinBytes?: number;
  /** Resident memory budget of one extractor process in MiB (default {@link EXTRACTOR_MEMORY_MB}). */
  memoryMb?: number;
  /** How slots run (tests); default: processes when this process may start Deno, else worker threads. */
  channels?: ChannelFactory;
  /**
   * Light slots for small documents (worker_pool.ts), where slots are processes. Default off: a light first paper
   * costs ~25 % less CPU, but each later paper in that extractor 20–100 ms more, so five papers searched one after
   * another cost 1.11× and ten 1.30× full slots (docs/benchmarks.md, "Where a PDF's CPU goes").
   */
  lightSlots?: boolean;
}

/** The extractor of this module: a PdfExtractor that can also probe and index text off-thread. */
export interface WorkerExtractor extends PdfExtractor {
  probe(bytes: Uint8Array, options?: PdfExtractOptions): Promise<PdfProbe>;
  /** Builds the search index of `text` off the server's thread (folding a book takes tens of ms). */
  index(text: string, options?: { signal?: AbortSignal }): Promise<SearchIndex>;
  /** Draws a page (or a region) as a PNG in an extractor, under the same limits as extraction. */
  render(bytes: Uint8Array, options: RenderOptions): Promise<RenderedPage>;
  /** The pool, for tests and benchmarks (pids, slots started). */
  readonly pool: WorkerPool;
}

export interface RenderOptions {
  page: number;
  region?: [number, number, number, number];
  maxSide: number;
  maxPngBytes: number;
  signal?: AbortSignal;
}

export type RenderedPage = Omit<Extract<FinalReply, { kind: "rendered" }>, "id" | "kind">;

export function createPdfExtractor(
  limits: Omit<Config["pdf"], "indexAhead" | "extractorIdleMs" | "library">,
  options: ExtractorOptions = {},
): WorkerExtractor {
  const clock = options.clock ?? systemClock;
  const slots = channelsOf(options);
  const pool = new WorkerPool({
    size: options.poolSize ?? defaultPoolSize(),
    idleMs: options.idleMs,
    log: options.log,
    clock,
    ...slots,
  });
  const splitMinPages = options.splitMinPages ?? SPLIT_MIN_PAGES;
  const splitMinBytes = options.splitMinBytes ?? SPLIT_MIN_BYTES;

  function checkSize(bytes: Uint8Array): void {
    if (bytes.byteLength > limits.maxBytes) throw tooManyBytes(bytes.byteLength, limits.maxBytes);
  }

  async function done(request: JobRequest, job: JobOptions): Promise<Extract<FinalReply, { kind: "done" }>> {
    const reply = await pool.run(request, job);
    if (reply.kind !== "done") throw new Error(`unexpected extractor reply '${reply.kind}'`);
    return reply;
  }

  return {
    pool,
    async extract(bytes: Uint8Array, opts: PdfExtractOptions = {}): Promise<PdfText> {
      checkSize(bytes);
      const images = hasImageXObject(bytes); // before the bytes are transferred
      const maxPages = opts.maxPages ?? limits.maxPages;
      const budgetMs = opts.timeoutMs ?? limits.timeoutMs;
      const deadline = clock.now() + budgetMs;
      // The page-count hint scans the whole file: taken only where it decides something (light slots, a split).
      let hint: number | undefined | null = null;
      const pages = () => hint === null ? (hint = pageCountHint(bytes)) : hint;
      const light = slots.lightSlots && !opts.oneOfMany && lightDocument(bytes, pages());
      // Two parts when two extractors are free (started or not).
      const long = bytes.byteLength >= splitMinBytes && (pages() ?? 0) >= splitMinPages;
      const parts = pool.size > 1 && pool.idle >= 2 && long ? 2 : 1;
      const progress: number[] = [];
      const job = (part: number): Promise<Extract<FinalReply, { kind: "done" }>> =>
        done(
          {
            op: "extract",
            bytes: parts > 1 ? bytes.slice() : bytes,
            maxPages,
            part,
            parts,
            splitMinPages,
            index: opts.index,
            images,
          },
          {
            timeoutMs: Math.max(1, deadline - clock.now()),
            budgetMs,
            signal: opts.signal,
            light,
            onProgress: (n, total) => {
              progress[part] = n;
              opts.onProgress?.(progress.reduce((a, b) => a + (b ?? 0), 0), total);
            },
          },
        );
      const replies = await Promise.all(Array.from({ length: parts }, (_, part) => job(part)));
      const text = merge(replies);
      assertReadable(text);
      assertTextLayer(text, images);
      return text;
    },
    async probe(bytes: Uint8Array, opts: PdfExtractOptions = {}): Promise<PdfProbe> {
      checkSize(bytes);
      const maxPages = opts.maxPages ?? limits.maxPages;
      const light = slots.lightSlots && lightDocument(bytes, pageCountHint(bytes));
      const reply = await done({ op: "probe", bytes, maxPages }, {
        timeoutMs: opts.timeoutMs ?? limits.timeoutMs,
        signal: opts.signal,
        light,
      });
      return { pageCount: reply.pageCount, unreadable: reply.unreadable };
    },
    async index(text: string, opts: { signal?: AbortSignal } = {}): Promise<SearchIndex> {
      const reply = await pool.run({ op: "index", text }, { timeoutMs: limits.timeoutMs, signal: opts.signal });
      if (reply.kind !== "indexed") throw new Error(`unexpected extractor reply '${reply.kind}'`);
      return reply.index;
    },
    async render(bytes: Uint8Array, opts: RenderOptions): Promise<RenderedPage> {
      checkSize(bytes);
      const { signal, ...what } = opts;
      const reply = await pool.run({ op: "render", bytes, maxPages: limits.maxPages, ...what }, {
        timeoutMs: limits.timeoutMs,
        signal,
      });
      if (reply.kind !== "rendered") throw new Error(`unexpected extractor reply '${reply.kind}'`);
      const { id: _id, kind: _kind, ...page } = reply;
      return page;
    },
    close: () => pool.close(),
  };
}

/** The pool's slots: processes (which may be light) when this process may start Deno, else worker threads. */
function channelsOf(options: ExtractorOptions): { channels: ChannelFactory; lightSlots: boolean } {
  if (options.channels) return { channels: options.channels, lightSlots: options.lightSlots ?? false };
  const command = startableDeno();
  if (command) {
    return {
      channels: processChannels({ command, memoryMb: options.memoryMb ?? EXTRACTOR_MEMORY_MB, log: options.log }),
      lightSlots: options.lightSlots ?? false,
    };
  }
  options.log?.info("PDF extraction runs in worker threads (no permission to start a Deno process)");
  return { channels: workerChannels({ log: options.log }), lightSlots: false };
}

/** Whether a light extractor may read `bytes` (see {@link LIGHT_MAX_PAGES}). */
export function lightDocument(bytes: Uint8Array, hint = pageCountHint(bytes)): boolean {
  if (bytes.byteLength > LIGHT_MAX_BYTES) return false;
  return hint === undefined ? bytes.byteLength < LIGHT_MAX_BYTES_UNHINTED : hint < LIGHT_MAX_PAGES;
}

const DIGIT_0 = 0x30;

/**
 * The largest `/Count N` in the file's raw bytes: the page count its root page-tree node declares, when
 * that node is not compressed into an object stream; undefined when none is seen. A hint only: the extractor
 * counts the pages itself, and a document whose page tree is compressed is read by one extractor.
 */
export function pageCountHint(bytes: Uint8Array): number | undefined {
  let most: number | undefined;
  for (const at of positionsOf(bytes, "/Count")) {
    let i = at + 6;
    while (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09) i++;
    let n = 0;
    let digits = 0;
    for (; bytes[i] >= DIGIT_0 && bytes[i] <= DIGIT_0 + 9 && digits < 9; i++, digits++) n = n * 10 + bytes[i] - DIGIT_0;
    if (digits > 0 && (most === undefined || n > most)) most = n;
  }
  return most;
}

/** The parts of a split document, in page order, as one text (and one index, when they carry theirs). */
function merge(replies: Extract<FinalReply, { kind: "done" }>[]): PdfText {
  const pageCount = replies[0].pageCount;
  const pages: string[] = new Array(pageCount).fill("");
  const unreadable: UnreadablePage[] = [];
  let joined: { text: string; index: SearchIndex } | undefined;
  let indexed = true;
  for (const reply of [...replies].sort((a, b) => a.first - b.first)) {
    reply.pages.forEach((page, i) => (pages[reply.first - 1 + i] = page));
    unreadable.push(...reply.unreadable);
    if (reply.pages.length === 0) continue;
    if (!reply.index) indexed = false;
    if (!indexed) continue;
    const text = reply.pages.join("\f");
    joined = joined
      ? { text: `${joined.text}\f${text}`, index: joinIndexes(joined.text, joined.index, "\f", text, reply.index!) }
      : { text, index: reply.index! };
  }
  unreadable.sort((a, b) => a.page - b.page);
  const engines = [...new Set(replies.filter((r) => r.pages.length && r.engine).map((r) => r.engine))];
  const text: PdfText = { pageCount, pages };
  if (engines.length) text.engine = engines.sort().reverse().join("+");
  if (unreadable.length) text.unreadable = unreadable;
  if (indexed && joined && joined.text.length === pages.join("\f").length) text.index = joined.index;
  return text;
}

/** A document none of whose pages could be read fails as a whole (parts cannot tell on their own). */
function assertReadable(text: PdfText): void {
  const broken = text.unreadable ?? [];
  if (text.pageCount === 0 || broken.length < text.pageCount) return;
  const first = broken[0].reason;
  if (/circular/.test(first)) {
    throw new PdfExtractionError(
      "circular",
      `The PDF's page tree is circular (a page node refers back to one of its ancestors): ${first}`,
      text.pageCount,
    );
  }
  throw new PdfExtractionError("corrupt", `The file is damaged: none of its pages can be read (${first})`);
}

/**
 * Two extractors when there are two cores or more: each is a process of its own (or a low-priority
 * thread), so the server's thread keeps getting CPU. One on a single core.
 */
export function defaultPoolSize(): number {
  return (navigator.hardwareConcurrency ?? 1) >= 2 ? 2 : 1;
}
