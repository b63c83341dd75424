/**
 * Finding PDFs under PDF_ROOT without ever leaving it. A name (already checked by pdf_name.ts) becomes
 * `<root>/<name>.pdf`; its real path (symlinks resolved) must lie strictly inside the real root, and it
 * must be a regular file (not a folder, device or pipe). The file is then opened by that real path, so
 * a symlink pointing elsewhere also meets Deno's read permission, which only covers PDF_ROOT.
 */
import { tooManyBytes } from "./limits.ts";
import { assertPdfName, pdfNameProblem } from "./pdf_name.ts";

export interface PdfFile {
  /** The name callers use: the file name without `.pdf`. */
  name: string;
  /** Real path inside PDF_ROOT. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Set on a paper of the library folder (LIBRARY_DIR), which holds its sidecar. */
  library?: true;
}

const SEPARATOR = Deno.build.os === "windows" ? "\\" : "/";

/** Most entries one listing returns (a folder is meant for a handful of documents, not an archive). */
export const MAX_LISTED = 500;
/** Most PDFs one search_pdfs or one index-ahead pass covers (their trigram filters keep that cheap). */
export const MAX_SEARCHED = 10_000;

/**
 * The PDF called `name` in `root`, or undefined when there is none (or none that may be read). Names that
 * break the naming rules throw INVALID_INPUT. `name.pdf` is accepted for `name` when only that exists.
 */
export async function locatePdf(root: string, name: string): Promise<PdfFile | undefined> {
  assertPdfName(name);
  const rootReal = await realPath(root);
  if (!rootReal) return undefined;
  const found = await resolveInside(rootReal, name);
  if (found || !/\.pdf$/i.test(name)) return found;
  const bare = name.slice(0, -4);
  return bare && !pdfNameProblem(bare) ? await resolveInside(rootReal, bare) : undefined;
}

/** A run of the PDFs of a folder, with how many the folder holds in all. */
export interface PdfFilePage {
  files: PdfFile[];
  /** PDFs in the folder (that search_pdf would accept). */
  total: number;
  /** Whether PDFs follow this run. */
  truncated: boolean;
}

/** Files stat'ed between two turns of the event loop while listing (see {@link listPdfFiles}). */
const STATS_PER_TURN = 500;

/**
 * The PDFs directly in `root` that search_pdf would accept, sorted by name: `limit` of them from
 * `offset` on. Every listing reads each file's size and mtime afresh (documents are keyed by them, so an
 * edited file is never answered from its old text), with synchronous `lstat`s (1,000 files: about 3 ms,
 * against about 100 ms awaiting one stat and one realpath each), yielding to the event loop every
 * {@link STATS_PER_TURN} files. A plain file's real path is the real root plus its name; only links
 * are resolved (and must lead inside the root).
 */
export async function listPdfFiles(root: string, offset = 0, limit = MAX_LISTED): Promise<PdfFilePage> {
  return await listPdfFolders([root], offset, limit);
}

/**
 * The PDFs of several folders as one sorted listing (PDF_ROOT and the library): a name in an earlier folder
 * hides the same name in a later one, as {@link locatePdfIn} finds it. Files of any folder after the first are
 * marked `library`.
 */
export async function listPdfFolders(roots: readonly string[], offset = 0, limit = MAX_LISTED): Promise<PdfFilePage> {
  const found = new Map<string, { rootReal: string; folder: number }>();
  for (const [folder, root] of roots.entries()) {
    const rootReal = await realPath(root);
    if (!rootReal) continue;
    for (const name of await pdfNamesIn(rootReal)) if (!found.has(name)) found.set(name, { rootReal, folder });
  }
  const names = [...found.keys()].sort((a, b) => a.localeCompare(b));
  const files: PdfFile[] = [];
  const run = names.slice(offset, offset + limit);
  for (const [i, name] of run.entries()) {
    if (i > 0 && i % STATS_PER_TURN === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const { rootReal, folder } = found.get(name)!;
    const inside = rootReal.endsWith(SEPARATOR) ? rootReal : rootReal + SEPARATOR;
    const file = plainFile(inside, name) ?? await resolveInside(rootReal, name);
    if (file) files.push(folder > 0 ? { ...file, library: true } : file);
  }
  return { files, total: names.length, truncated: names.length > offset + limit };
}

/** The names of the PDFs directly in a folder that search_pdf would accept. */
async function pdfNamesIn(rootReal: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(rootReal)) {
    if (!entry.name.endsWith(".pdf") || !(entry.isFile || entry.isSymlink)) continue;
    const name = entry.name.slice(0, -4);
    if (!name || pdfNameProblem(name)) continue;
    // A link counts only when it leads to a file inside the folder (a plain file always does).
    if (entry.isSymlink && !await resolveInside(rootReal, name)) continue;
    names.push(name);
  }
  return names;
}

/** {@link locatePdf} over several folders, first match first; a later folder's file is marked `library`. */
export async function locatePdfIn(roots: readonly string[], name: string): Promise<PdfFile | undefined> {
  for (const [folder, root] of roots.entries()) {
    const file = await locatePdf(root, name);
    if (file) return folder > 0 ? { ...file, library: true } : file;
  }
  return undefined;
}

/**
 * `<inside><name>.pdf` when it is a plain regular file (by lstat: not a link), else undefined (a link,
 * gone, or not a file: the caller resolves links, which are rare).
 */
function plainFile(inside: string, name: string): PdfFile | undefined {
  const path = `${inside}${name}.pdf`;
  try {
    const info = Deno.lstatSync(path);
    return info.isFile ? { name, path, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a located PDF, refusing more than `maxBytes`. The handle is checked again after opening, so a
 * file swapped for a folder or a bigger file in between is caught.
 */
export async function readPdfBytes(file: Pick<PdfFile, "path">, maxBytes: number): Promise<Uint8Array> {
  using handle = await Deno.open(file.path, { read: true });
  const info = await handle.stat();
  if (!info.isFile) throw new Deno.errors.NotFound(`${file.path} is not a regular file`);
  if (info.size > maxBytes) throw tooManyBytes(info.size, maxBytes);
  const bytes = new Uint8Array(info.size);
  let filled = 0;
  while (filled < bytes.length) {
    const read = await handle.read(bytes.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return filled === bytes.length ? bytes : bytes.slice(0, filled);
}

async function resolveInside(rootReal: string, name: string): Promise<PdfFile | undefined> {
  const inside = rootReal.endsWith(SEPARATOR) ? rootReal : rootReal + SEPARATOR;
  const path = await realPath(`${inside}${name}.pdf`);
  if (!path || !path.startsWith(inside)) return undefined;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined;
    return { name, path, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  } catch {
    return undefined;
  }
}

/** The real path, or undefined when it does not exist, loops, or may not be read (permissions). */
async function realPath(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}
