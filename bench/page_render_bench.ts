/**
 * render_pdf_page's cost (#38): a page of a recorded arXiv paper drawn by PDFium in a warm extractor
 * process, then its PNG encoding alone (src/sources/pdf/png.ts: Up filter + the platform's
 * CompressionStream("deflate")) on the same pixels, at the default size (1400 px) and the largest (2048 px).
 * Each figure is the median of 5 runs; sizes are checked against the 2 MB cap.
 */
import { createPdfExtractor } from "../src/sources/pdf/extractor.ts";
import { encodePng } from "../src/sources/pdf/png.ts";
import { MAX_PNG_BYTES } from "../src/tools/pdf/render_pdf_page.ts";
import type { BenchRow } from "./types.ts";

const COMMAND = "deno task bench page_render";
const PAPER = new URL("../fixtures/arxiv/pdf/arxivpy__1111.2011v2.pdf", import.meta.url);
const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The RGB pixels of a PNG written by encodePng (one IDAT, Up filter), to encode them again alone. */
async function pixels(png: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const view = new DataView(png.buffer, png.byteOffset);
  let at = 8;
  while (new TextDecoder().decode(png.subarray(at + 4, at + 8)) !== "IDAT") at += 12 + view.getUint32(at);
  const idat = png.slice(at + 8, at + 8 + view.getUint32(at));
  const raw = new Uint8Array(
    await new Response(new Blob([idat]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer(),
  );
  const stride = width * 3;
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < stride; x++) {
      rgb[y * stride + x] = (raw[y * (stride + 1) + 1 + x] + (y > 0 ? rgb[(y - 1) * stride + x] : 0)) & 0xff;
    }
  }
  return rgb;
}

export async function run(): Promise<BenchRow[]> {
  const extractor = createPdfExtractor({
    root: ".",
    maxPages: 2000,
    maxBytes: 100 * 1024 * 1024,
    timeoutMs: 120_000,
  }, { poolSize: 1 });
  const bytes = await Deno.readFile(PAPER);
  const rows: BenchRow[] = [];
  try {
    await extractor.render(bytes.slice(), { page: 1, maxSide: 200, maxPngBytes: MAX_PNG_BYTES }); // warm up
    for (const side of [1400, 2048]) {
      const totals: number[] = [];
      let page;
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        page = await extractor.render(bytes.slice(), { page: 3, maxSide: side, maxPngBytes: MAX_PNG_BYTES });
        totals.push(performance.now() - started);
      }
      const rgb = await pixels(page!.png, page!.width, page!.height);
      const encodes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        await encodePng(rgb, page!.width, page!.height);
        encodes.push(performance.now() - started);
      }
      const total = median(totals);
      const encode = median(encodes);
      const where = `page 3 of arXiv 1111.2011v2 at ${page!.width}×${page!.height}`;
      rows.push(
        {
          name: `render_pdf_page: draw + encode in the extractor, ${side} px`,
          value: Math.round(total),
          unit: "ms",
          command: COMMAND,
          notes: `${where}, warm extractor process, file read and transfer included`,
        },
        {
          name: `render_pdf_page: PNG encode alone (platform deflate), ${side} px`,
          value: Math.round(encode),
          unit: "ms",
          command: COMMAND,
          notes: `${Math.round((100 * encode) / total)} % of the call's time; ${
            (rgb.length / 1024 ** 2).toFixed(1)
          } MB of RGB`,
        },
        {
          name: `render_pdf_page: PNG size, ${side} px`,
          value: Math.round(page!.png.length / 1024),
          unit: "KB",
          target: `≤ ${MAX_PNG_BYTES / 1024} KB`,
          pass: page!.png.length <= MAX_PNG_BYTES,
          command: COMMAND,
          notes: `${((8 * page!.png.length) / (page!.width * page!.height)).toFixed(2)} bits per pixel`,
        },
      );
    }
  } finally {
    await extractor.close();
  }
  return rows;
}
