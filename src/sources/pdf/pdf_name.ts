/**
 * The first wall of search_pdf's confinement: `pdf_name` is a file name, never a path. Anything that
 * could make a path out of it is refused before the file system is touched; pdf_files.ts then checks
 * (after symlinks) that the file really lies inside PDF_ROOT, and the permission sets are the second wall.
 */
import { invalidInput, type ToolError } from "../../core/errors.ts";

/** Unicode look-alikes of `/` and `\` that some layer might fold to the real thing. */
const SLASH_LOOKALIKES = /[\u2044\u2215\u2216\u29F8\u29F9\uFE68\uFF0F\uFF3C]/;
/** Device names Windows resolves in any folder, with any extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

/** Why `name` is not an acceptable PDF name, or undefined when it is. */
export function pdfNameProblem(name: string): string | undefined {
  if (name.length === 0) return "must not be empty";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return "must not contain control characters (NUL, line breaks, tabs)";
  if (/[/\\]/.test(name)) return "is a file name, not a path: '/' and '\\' are not allowed";
  if (name.includes("..")) return "must not contain '..'";
  if (name.includes(":")) return "must not contain ':' (drive letters, URLs and alternate data streams)";
  if (/%(2f|5c|2e|00|3a|25)/i.test(name)) {
    return "must not contain percent-encoded separators, dots or NULs (%2F, %5C, %2E, %00, %3A, %25)";
  }
  const compatible = name.normalize("NFKC");
  if (SLASH_LOOKALIKES.test(name) || /[/\\:]|\.\./.test(compatible)) {
    return "must not contain look-alikes of '/', '\\', ':' or '..' (e.g. full-width '／' or '．．')";
  }
  if (WINDOWS_DEVICE.test(name.trim())) return "is a reserved device name (CON, NUL, COM1, LPT1, …)";
  return undefined;
}

/** The INVALID_INPUT error for a bad name, naming the field and pointing at list_pdfs. */
function badPdfName(name: string, problem: string): ToolError {
  return invalidInput(
    "pdf_name",
    problem,
    name,
    "Pass the name of a PDF in PDF_ROOT without folders or '.pdf', exactly as list_pdfs shows it " +
      '(e.g. "dvt_prophylaxis_review").',
  );
}

export function assertPdfName(name: string): void {
  const problem = pdfNameProblem(name);
  if (problem) throw badPdfName(name, problem);
}
