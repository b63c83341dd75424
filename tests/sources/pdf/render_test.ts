/** Drawing a page in the extractor: a well-formed PNG within the size caps, the page's text, refusals. */
import assert from "node:assert/strict";
import { createPdfExtractor } from "../../../src/sources/pdf/extractor.ts";
import { crc32 } from "node:zlib";
import { encodePng } from "../../../src/sources/pdf/png.ts";
import { writePdf } from "../../../src/sources/pdf/pdf_writer.ts";
import { PdfExtractionError } from "../../../src/sources/pdf/types.ts";

const PAPER = new URL("../../../fixtures/arxiv/pdf/arxivpy__1111.2011v2.pdf", import.meta.url);
const LIMITS = { root: ".", maxPages: 2000, maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000 };

/** The chunks of a PNG, each CRC checked, and its pixels inflated again. */
async function readPng(png: Uint8Array): Promise<{ width: number; height: number; pixels: Uint8Array }> {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0, height = 0;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const crc = crc32(png.subarray(at + 4, at + 8 + length));
    assert.equal(view.getUint32(at + 8 + length), crc, `CRC of ${type}`);
    if (type === "IHDR") [width, height] = [view.getUint32(at + 8), view.getUint32(at + 12)];
    if (type === "IDAT") idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const pixels = new Uint8Array(
    await new Response(new Blob(idat.map((c) => c.slice())).stream().pipeThrough(new DecompressionStream("deflate")))
      .arrayBuffer(),
  );
  return { width, height, pixels };
}

Deno.test("encodePng writes a PNG whose pixels inflate back to the rows given", async () => {
  const rgb = new Uint8Array(4 * 3 * 3).map((_, i) => (i * 37) % 256);
  const { width, height, pixels } = await readPng(await encodePng(rgb, 4, 3));
  assert.deepEqual([width, height], [4, 3]);
  assert.equal(pixels.length, 3 * (1 + 4 * 3));
  // Undo the Up filter and compare.
  const rows: number[] = [];
  for (let y = 0; y < 3; y++) {
    assert.equal(pixels[y * 13], 2);
    for (let x = 0; x < 12; x++) {
      const above = y > 0 ? rows[(y - 1) * 12 + x] : 0;
      rows.push((pixels[y * 13 + 1 + x] + above) & 0xff);
    }
  }
  assert.deepEqual(rows, [...rgb]);
});

Deno.test("the extractor draws a page and a region as PNGs within max_side, with the page's text", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1 });
  try {
    const bytes = await Deno.readFile(PAPER);
    const page = await extractor.render(bytes.slice(), { page: 1, maxSide: 700, maxPngBytes: 2 * 1024 * 1024 });
    assert.equal(page.pageCount, 8);
    assert.equal(Math.max(page.width, page.height), 700);
    const png = await readPng(page.png);
    assert.deepEqual([png.width, png.height], [page.width, page.height]);
    assert.match(page.text, /Quantum Criticality for Extended Nodes/);
    const half = await extractor.render(bytes.slice(), {
      page: 1,
      region: [0, 0.5, 1, 1],
      maxSide: 700,
      maxPngBytes: 2 * 1024 * 1024,
    });
    assert.ok(
      half.width > half.height,
      `the lower half of a portrait page is landscape (${half.width}×${half.height})`,
    );
    assert.equal(Math.max(half.width, half.height), 700);
  } finally {
    await extractor.close();
  }
});

Deno.test("an oversized drawing is refused in the extractor and a page past the end is named", async () => {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1 });
  try {
    const bytes = await Deno.readFile(PAPER);
    await assert.rejects(
      () => extractor.render(bytes.slice(), { page: 1, maxSide: 2048, maxPngBytes: 50_000 }),
      (e) =>
        e instanceof PdfExtractionError && e.reason === "too_large" &&
        /over the limit of 49 KB: ask for a region/.test(e.message),
    );
    await assert.rejects(
      () => extractor.render(bytes.slice(), { page: 9, maxSide: 500, maxPngBytes: 2 * 1024 * 1024 }),
      (e) => e instanceof PdfExtractionError && /8 pages only/.test(e.message),
    );
    await assert.rejects(
      () =>
        extractor.render(new TextEncoder().encode("<html>not a pdf</html>"), {
          page: 1,
          maxSide: 500,
          maxPngBytes: 1e6,
        }),
      (e) => e instanceof PdfExtractionError && e.reason === "corrupt",
    );
  } finally {
    await extractor.close();
  }
});

/** A page with a line of text over a JPEG that ends after its scan header: libjpeg gives up on it. */
function pageWithDamagedJpeg(): Uint8Array {
  const jpeg = new Uint8Array([
    ...[0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0], // SOI, APP0
    ...[0xff, 0xc0, 0, 11, 8, 0, 2, 0, 2, 1, 1, 0x11, 0], // SOF0: 2×2, one component, no tables follow
    ...[0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, 0x12, 0x34, 0xff, 0xd9], // SOS without its Huffman table, EOI
  ]);
  const drawing = "BT /F1 12 Tf 72 720 Td (Text above a damaged image) Tj ET\nq 468 0 0 600 72 72 cm /Im1 Do Q";
  return writePdf([
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    [
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
      "/Resources << /Font << /F1 4 0 R >> /XObject << /Im1 6 0 R >> >> /Contents 5 0 R >>",
    ],
    ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"],
    [`<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`],
    [
      "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 " +
      `/Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      jpeg,
      "\nendstream",
    ],
  ]);
}

Deno.test("a page whose JPEG libjpeg gives up on is still drawn, with its text", async () => {
  // libjpeg leaves a broken image by longjmp: it comes back through the host's invoke_* imports
  // (pdfium_host.ts), and PDFium draws the rest of the page.
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1 });
  try {
    const page = await extractor.render(pageWithDamagedJpeg(), { page: 1, maxSide: 100, maxPngBytes: 1e6 });
    assert.equal(page.pageCount, 1);
    assert.equal(page.text, "Text above a damaged image");
    const png = await readPng(page.png);
    assert.deepEqual([png.width, png.height], [page.width, page.height]);
  } finally {
    await extractor.close();
  }
});
