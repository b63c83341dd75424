/**
 * Index ahead: with a disk cache (SCIENCE_MCP_CACHE_DIR), the PDFs already in PDF_ROOT are indexed once
 * in the background after start-up and persisted, so the first search of one is answered from the disk
 * index. Off without a disk cache (a PDF is then indexed on its first use) and with PDF_INDEX_AHEAD=0.
 */
import type { ToolContext } from "../../context.ts";
import { workerExtractor } from "./extractor.ts";
import { pdfLibrary } from "./pdf_library.ts";

/** Bytes of PDF read in one pass at most (the file count is PDF_INDEX_AHEAD). */
export const INDEX_AHEAD_MAX_BYTES = 2 * 1024 ** 3;
/** Time between the server's start and the pass, and between checks while a PDF call is in progress. */
const PAUSE_MS = 1000;

export interface IndexAheadReport {
  /** PDFs extracted and persisted by this pass. */
  indexed: number;
  /** PDFs already in the disk cache (or remembered) and left alone. */
  known: number;
  /** PDFs left for their first use: over the file or byte cap, or the pass was stopped. */
  skipped: number;
}

/**
 * One pass over PDF_ROOT: smallest files first, one at a time (the other extractor stays free for the
 * client's searches; extractor processes run at a lower priority), pausing while a PDF call is in
 * progress, capped at PDF_INDEX_AHEAD files and {@link INDEX_AHEAD_MAX_BYTES} bytes. Idle extractors are
 * released at the end. Never fails: a PDF that cannot be read keeps its verdict, like any search's.
 */
export async function indexAhead(
  ctx: Pick<ToolContext, "shared" | "config" | "clock" | "log">,
  options: { signal?: AbortSignal } = {},
): Promise<IndexAheadReport> {
  const report: IndexAheadReport = { indexed: 0, known: 0, skipped: 0 };
  const { cacheDir, pdf } = ctx.config;
  if (!cacheDir || pdf.indexAhead === 0) return report;
  const library = pdfLibrary(ctx);
  const log = ctx.log.child({ component: "pdf-index-ahead" });
  const { files } = await library.files().catch(() => ({ files: [] }));
  let bytes = 0;
  let taken = 0;
  for (const file of [...files].sort((a, b) => a.size - b.size)) {
    if (options.signal?.aborted || taken >= pdf.indexAhead || bytes + file.size > INDEX_AHEAD_MAX_BYTES) {
      report.skipped++;
      continue;
    }
    while (library.busy && !options.signal?.aborted) await pause(PAUSE_MS, options.signal);
    try {
      if (await library.prepare(file, { log })) {
        report.indexed++;
        taken++;
        bytes += file.size;
      } else {
        report.known++;
      }
    } catch (error) {
      if (!options.signal?.aborted) log.warn("could not index a PDF ahead", { pdf: file.name, error: String(error) });
    }
  }
  workerExtractor(ctx).pool.release();
  if (!options.signal?.aborted) await library.saveFilters(files, { log });
  if (report.indexed > 0) log.info("PDFs indexed ahead into the disk cache", { ...report });
  return report;
}

/**
 * Starts {@link indexAhead} once the server is up ({@link PAUSE_MS} later), when the disk cache is on and
 * PDF_INDEX_AHEAD > 0; `runtime.close()` stops it between files. Does nothing (starts no timer) otherwise.
 */
export function startIndexAhead(ctx: Pick<ToolContext, "shared" | "config" | "clock" | "log">): void {
  if (!ctx.config.cacheDir || ctx.config.pdf.indexAhead === 0) return;
  const stop = ctx.shared("pdf-index-ahead", () => {
    const controller = new AbortController();
    return { signal: controller.signal, close: () => controller.abort() };
  });
  pause(PAUSE_MS, stop.signal).then(() => indexAhead(ctx, { signal: stop.signal })).catch(() => {});
}

/** An unreferenced pause: background work never keeps the process alive. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    Deno.unrefTimer(timer);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
