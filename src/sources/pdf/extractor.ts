/**
 * The worker-backed {@link PdfExtractor}: byte and page limits, a time budget per document, and a check
 * that the document has a text layer at all. search_pdf and fetch_content (papers) share one per server.
 */
import type { Config } from "../../config.ts";
import type { Logger } from "../../core/log.ts";
import type { ToolContext } from "../../context.ts";
import { PdfExtractionError, type PdfExtractOptions, type PdfExtractor, type PdfText } from "./types.ts";
import { tooManyBytes, tooManyPages } from "./limits.ts";
import type { SearchIndex } from "./normalize.ts";
import { type JobOptions, type JobRequest, WorkerPool } from "./worker_pool.ts";

/**
 * Below this many non-blank characters per page (on average) a document counts as having no text layer:
 * scans carry at most a stray word or a producer stamp.
 */
export const MIN_CHARS_PER_PAGE = 16;

/** Documents at least this large and long are extracted by two workers in parallel (see splitAcrossWorkers). */
const SPLIT_MIN_BYTES = 512 * 1024;
const SPLIT_MIN_PAGES = 40;

/** The runtime's shared extractor (one worker pool per server). */
export function pdfExtractor(ctx: Pick<ToolContext, "shared" | "config">): PdfExtractor {
  return workerExtractor(ctx);
}

/** The same shared extractor, with its page counting and off-thread indexing. */
export function workerExtractor(ctx: Pick<ToolContext, "shared" | "config">): WorkerExtractor {
  return ctx.shared("pdf-extractor", () => createPdfExtractor(ctx.config.pdf));
}

export interface ExtractorOptions {
  /** Workers in the pool; see {@link defaultPoolSize}. */
  poolSize?: number;
  idleMs?: number;
  log?: Logger;
  /** Size and length from which a document is split across two workers (defaults: 512 KiB, 40 pages). */
  splitMinBytes?: number;
  splitMinPages?: number;
}

/** The extractor of this module: a PdfExtractor that can also count pages and index text off-thread. */
export interface WorkerExtractor extends PdfExtractor {
  countPages(bytes: Uint8Array, options?: PdfExtractOptions): Promise<number>;
  /** Builds the search index of `text` in a worker (folding a book takes tens of milliseconds). */
  index(text: string, options?: { signal?: AbortSignal }): Promise<SearchIndex>;
}

type PageRequest = Omit<Extract<JobRequest, { op: "extract" | "count" }>, "maxPages">;

export function createPdfExtractor(limits: Config["pdf"], options: ExtractorOptions = {}): WorkerExtractor {
  const pool = new WorkerPool({
    size: options.poolSize ?? defaultPoolSize(),
    idleMs: options.idleMs,
    log: options.log,
  });

  async function pages(request: Extract<JobRequest, { op: "extract" | "count" }>, job: JobOptions): Promise<PdfText> {
    if (request.bytes.byteLength > limits.maxBytes) throw tooManyBytes(request.bytes.byteLength, limits.maxBytes);
    const reply = await pool.run(request, job);
    if (reply.kind !== "done") throw new Error(`unexpected worker reply '${reply.kind}'`);
    return { pageCount: reply.pageCount, pages: reply.pages };
  }

  return {
    async extract(bytes: Uint8Array, opts: PdfExtractOptions = {}): Promise<PdfText> {
      const maxPages = opts.maxPages ?? limits.maxPages;
      const budgetMs = opts.timeoutMs ?? limits.timeoutMs;
      const deadline = Date.now() + budgetMs;
      const parts: number[] = [];
      let pageTotal = 0;
      const job = (request: PageRequest, part = 0) =>
        pages({ ...request, maxPages }, {
          timeoutMs: Math.max(1, deadline - Date.now()),
          budgetMs,
          signal: opts.signal,
          onProgress: (done, total) => {
            parts[part] = done;
            opts.onProgress?.(parts.reduce((a, b) => a + b, 0), pageTotal || total);
          },
        });
      let text: PdfText | undefined;
      if (pool.size > 1 && bytes.byteLength >= (options.splitMinBytes ?? SPLIT_MIN_BYTES)) {
        pool.warm();
        pageTotal = (await job({ op: "count", bytes: bytes.slice() })).pageCount;
        if (pageTotal > maxPages) throw tooManyPages(pageTotal, maxPages);
        if (pageTotal >= (options.splitMinPages ?? SPLIT_MIN_PAGES)) {
          text = await splitAcrossWorkers(bytes, pageTotal, job);
        }
      }
      text ??= await job({ op: "extract", bytes });
      assertTextLayer(text);
      return text;
    },
    async countPages(bytes: Uint8Array, opts: PdfExtractOptions = {}): Promise<number> {
      const request = { op: "count" as const, bytes, maxPages: opts.maxPages ?? limits.maxPages };
      return (await pages(request, { timeoutMs: opts.timeoutMs ?? limits.timeoutMs, signal: opts.signal })).pageCount;
    },
    async index(text: string, opts: { signal?: AbortSignal } = {}): Promise<SearchIndex> {
      const reply = await pool.run({ op: "index", text }, { timeoutMs: limits.timeoutMs, signal: opts.signal });
      if (reply.kind !== "indexed") throw new Error(`unexpected worker reply '${reply.kind}'`);
      return reply.index;
    },
    close: () => pool.close(),
  };
}

type Job = (request: PageRequest, part?: number) => Promise<PdfText>;

/**
 * Long documents are cut in two page ranges extracted by two workers at once: each re-reads the fonts
 * its pages use, but the wall time still drops by a third or more on an idle machine (bench/pdf_bench.ts).
 */
async function splitAcrossWorkers(bytes: Uint8Array, pageCount: number, job: Job): Promise<PdfText> {
  const middle = Math.ceil(pageCount / 2);
  const [head, tail] = await Promise.all([
    job({ op: "extract", bytes: bytes.slice(), first: 1, last: middle }, 0),
    job({ op: "extract", bytes, first: middle + 1, last: pageCount }, 1),
  ]);
  return { pageCount, pages: [...head.pages, ...tail.pages] };
}

/** Rejects documents whose pages carry (almost) no text: scans without OCR, vector-only drawings. */
function assertTextLayer(text: PdfText): void {
  let chars = 0;
  for (const page of text.pages) chars += page.replace(/\s+/g, "").length;
  if (text.pageCount > 0 && chars >= MIN_CHARS_PER_PAGE * text.pageCount) return;
  throw new PdfExtractionError(
    "no_text",
    `The PDF has no text layer (${chars} characters of text on ${text.pageCount} page(s)): it is probably ` +
      `scanned images. Run OCR on it first (e.g. ocrmypdf in.pdf out.pdf), then search the result.`,
    text.pageCount,
  );
}

/**
 * Two workers when the server's own thread keeps a core or the upper hand: three cores or more, or two
 * cores on Linux when the workers may lower their priority (pdf_worker.ts, `--allow-sys=setPriority`).
 * Otherwise one, so that a long extraction never leaves requests waiting for CPU.
 */
export function defaultPoolSize(): number {
  const cores = navigator.hardwareConcurrency ?? 1;
  if (cores >= 3) return 2;
  const nice = Deno.build.os === "linux" &&
    Deno.permissions.querySync({ name: "sys", kind: "setPriority" }).state === "granted";
  return cores === 2 && nice ? 2 : 1;
}
