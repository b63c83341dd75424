/**
 * Draws one page of a PDF (or a region of it) with PDFium into a bitmap and encodes it as a PNG (png.ts),
 * inside the extractor (jobs.ts), so a hostile document's drawing meets the same memory and time
 * limits as its text. The reply carries the page's text as well, read from the same open document.
 */
import { PASSWORD_MESSAGE } from "./engine.ts";
import { formatBytes } from "./limits.ts";
import { loadedPageText, type Pdfium, pdfium } from "./pdfium_engine.ts";
import { encodePng } from "./png.ts";
import type { RenderRequest, WorkerReply } from "./worker_protocol.ts";

/** FPDF_ANNOT: draw annotations (form fields, stamps) as a viewer shows them. */
const FPDF_ANNOT = 0x01;
/** At most 8 px per point (576 dpi): a tiny region is not blown up without end. */
const MAX_SCALE = 8;

export async function renderPage(request: RenderRequest): Promise<WorkerReply> {
  const { id } = request;
  const lib = await pdfium();
  const at = lib.malloc(request.bytes.byteLength);
  lib.heap().set(request.bytes, at);
  const doc = lib.FPDF_LoadMemDocument(at, request.bytes.byteLength, 0);
  if (!doc) {
    const code = lib.FPDF_GetLastError();
    lib.free(at);
    return code === 4 ? { id, kind: "failed", reason: "password", message: PASSWORD_MESSAGE } : {
      id,
      kind: "failed",
      reason: "corrupt",
      message: `The file cannot be opened as a PDF (PDFium error ${code}).`,
    };
  }
  try {
    const pageCount = lib.FPDF_GetPageCount(doc);
    if (pageCount > request.maxPages) {
      return {
        id,
        kind: "failed",
        reason: "too_large",
        pageCount,
        message: `The PDF has ${pageCount} pages, over the limit of ${request.maxPages} pages (PDF_MAX_PAGES).`,
      };
    }
    if (request.page > pageCount) {
      return { id, kind: "failed", reason: "corrupt", pageCount, message: `The PDF has ${pageCount} pages only.` };
    }
    const page = lib.FPDF_LoadPage(doc, request.page - 1);
    if (!page) {
      return { id, kind: "failed", reason: "corrupt", pageCount, message: `Page ${request.page} cannot be loaded.` };
    }
    try {
      const [x0, y0, x1, y1] = request.region ?? [0, 0, 1, 1];
      const pageW = lib.FPDF_GetPageWidthF(page);
      const pageH = lib.FPDF_GetPageHeightF(page);
      const scale = Math.min(MAX_SCALE, request.maxSide / Math.max((x1 - x0) * pageW, (y1 - y0) * pageH));
      const fullW = Math.max(1, Math.round(pageW * scale));
      const fullH = Math.max(1, Math.round(pageH * scale));
      const left = Math.round(x0 * fullW);
      const top = Math.round(y0 * fullH);
      const width = Math.max(1, Math.min(request.maxSide, Math.round(x1 * fullW) - left));
      const height = Math.max(1, Math.min(request.maxSide, Math.round(y1 * fullH) - top));
      const rgb = draw(lib, page, { left, top, width, height, fullW, fullH });
      const png = await encodePng(rgb, width, height);
      if (png.length > request.maxPngBytes) {
        return {
          id,
          kind: "failed",
          reason: "too_large",
          pageCount,
          message: `The drawn page is ${formatBytes(png.length)} as a PNG, over the limit of ` +
            `${formatBytes(request.maxPngBytes)}: ask for a region of it or a smaller max_side.`,
        };
      }
      return { id, kind: "rendered", pageCount, width, height, png, text: loadedPageText(lib, page) ?? "" };
    } finally {
      lib.FPDF_ClosePage(page);
    }
  } finally {
    lib.FPDF_CloseDocument(doc);
    lib.free(at);
  }
}

/** The region's pixels as RGB: the page drawn on white at the full size, shifted so the region is at 0,0. */
function draw(
  lib: Pdfium,
  page: number,
  box: { left: number; top: number; width: number; height: number; fullW: number; fullH: number },
): Uint8Array {
  const bitmap = lib.FPDFBitmap_Create(box.width, box.height, 0);
  if (!bitmap) throw new Error(`PDFium could not make a ${box.width}×${box.height} bitmap`);
  try {
    lib.FPDFBitmap_FillRect(bitmap, 0, 0, box.width, box.height, 0xffffffff);
    lib.FPDF_RenderPageBitmap(bitmap, page, -box.left, -box.top, box.fullW, box.fullH, 0, FPDF_ANNOT);
    const stride = lib.FPDFBitmap_GetStride(bitmap);
    const buffer = lib.FPDFBitmap_GetBuffer(bitmap);
    const bgrx = lib.heap().subarray(buffer, buffer + stride * box.height);
    const rgb = new Uint8Array(box.width * box.height * 3);
    for (let y = 0; y < box.height; y++) {
      for (let x = 0; x < box.width; x++) {
        const from = y * stride + x * 4;
        const to = (y * box.width + x) * 3;
        rgb[to] = bgrx[from + 2];
        rgb[to + 1] = bgrx[from + 1];
        rgb[to + 2] = bgrx[from];
      }
    }
    return rgb;
  } finally {
    lib.FPDFBitmap_Destroy(bitmap);
  }
}
