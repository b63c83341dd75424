/**
 * Starts the PDF extractors in the background once the server is up and warms them up (see
 * extractor.ts warm-up plan), without getting in the way of the client's first requests.
 */
import type { ToolContext } from "../../context.ts";
import { workerExtractor } from "./extractor.ts";
import { pdfLibrary } from "./pdf_library.ts";
import { listPdfFiles, readPdfBytes } from "./pdf_files.ts";

/** Sizes of a PDF of PDF_ROOT fit to warm the extractors up: a real document (its fonts), but a short one. */
const WARM_UP_MIN_BYTES = 16 * 1024;
const WARM_UP_MAX_BYTES = 1024 * 1024;
/** PDFs of PDF_ROOT in the warm-up plan (the smallest that fit). */
const WARM_UP_SAMPLES = 2;
/** Time between the server's start (or a PDF call in progress) and the next try. */
const WARM_UP_DELAY_MS = 100;
/** After this long the warm-up starts even if PDF calls never stop. */
const WARM_UP_PATIENCE_MS = 10_000;

/**
 * Starts the extractors and warms them up: process start, pdf.js loading, then a few extractions of a
 * built-in typeset PDF and of the smallest PDFs of PDF_ROOT, which get V8 to optimise pdf.js before the
 * first search (a process's first documents otherwise take two to three times as long). It waits while
 * a PDF call is in progress (a search answered from the disk cache must not share the CPU with two
 * starting processes), and its steps yield to real jobs. Called once the server is up; never fails.
 */
export function warmPdfExtractor(ctx: Pick<ToolContext, "shared" | "config" | "clock" | "log">): void {
  const library = pdfLibrary(ctx);
  const extractor = workerExtractor(ctx);
  let waited = 0;
  const attempt = () => {
    if (library.busy && waited < WARM_UP_PATIENCE_MS) {
      waited += WARM_UP_DELAY_MS;
      Deno.unrefTimer(setTimeout(attempt, WARM_UP_DELAY_MS));
      return;
    }
    smallestPdfs(ctx.config.pdf.root).then((samples) => extractor.warm(samples), () => extractor.warm());
  };
  Deno.unrefTimer(setTimeout(attempt, WARM_UP_DELAY_MS));
}

async function smallestPdfs(root: string): Promise<Uint8Array[]> {
  const { files } = await listPdfFiles(root);
  const fit = files.filter((f) => f.size >= WARM_UP_MIN_BYTES && f.size <= WARM_UP_MAX_BYTES);
  const small = fit.sort((a, b) => a.size - b.size).slice(0, WARM_UP_SAMPLES);
  return await Promise.all(small.map((file) => readPdfBytes(file, WARM_UP_MAX_BYTES)));
}
