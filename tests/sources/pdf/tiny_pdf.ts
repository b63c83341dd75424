/** One-page PDFs built at test time (src/sources/pdf/pdf_writer.ts): a line of text, optionally over an image. */
import { writePdf } from "../../../src/sources/pdf/pdf_writer.ts";

/** A Letter page showing `text` in Helvetica; with `image`, also a 2×2 grey image XObject drawn over the page. */
export function tinyPdf(text: string, options: { image?: boolean } = {}): Uint8Array {
  const escaped = text.replace(/[\\()]/g, "\\$&");
  const drawing = `BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET` +
    (options.image ? "\nq 468 0 0 600 72 72 cm /Im1 Do Q" : "");
  const xobject = options.image ? " /XObject << /Im1 6 0 R >>" : "";
  return writePdf([
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    [
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
      `/Resources << /Font << /F1 4 0 R >>${xobject} >> /Contents 5 0 R >>`,
    ],
    ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"],
    [`<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`],
    ...(options.image
      ? [[
        "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 " +
        "/Length 4 >>\nstream\n",
        new Uint8Array([0, 255, 255, 0]),
        "\nendstream",
      ]]
      : []),
  ]);
}
