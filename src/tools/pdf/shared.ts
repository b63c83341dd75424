/** Wording and names shared by the pdf toolset's tools and resources. */

/** The sample paper shipped in files/ (see files/README.md): every example uses it. */
export const SAMPLE_PDF = "dvt_prophylaxis_review";

export const PDF_NAME_DESCRIPTION = "Name of a PDF in the server's PDF folder, without folders and without " +
  `'.pdf', as list_pdfs shows it, e.g. "${SAMPLE_PDF}" for ${SAMPLE_PDF}.pdf. Paths, '..', separators and ` +
  "drive letters are refused.";

/** `pdf://files/{name}`: the extracted text of one PDF. */
export function pdfUri(name: string): string {
  return `pdf://files/${encodeURIComponent(name)}`;
}
