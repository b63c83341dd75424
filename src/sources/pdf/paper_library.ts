/**
 * The paper library (LIBRARY_DIR): open-access PDFs saved by save_paper, each beside a `<name>.json`
 * sidecar with its ids and citation metadata. Names follow one rule ({@link libraryName}) that maps each id
 * to exactly one valid pdf_name, so two different ids never share a file. Writes stay inside the folder:
 * the name is a plain file name (pdf_name.ts), the bytes go to a fresh temporary file in the folder that is
 * then renamed over the final name (a link planted there is replaced, never followed), and the permission
 * sets grant write access to this folder alone.
 */
import { sha256Hex } from "../../core/sha256.ts";
import { pdfNameProblem } from "./pdf_name.ts";

/** The ids a saved paper is known by (what the sidecar records, and what finds it again). */
export interface PaperIds {
  pmid?: string;
  pmcid?: string;
  doi?: string;
  arxiv?: string;
  openalex?: string;
}

/** The sidecar `<name>.json`. */
export interface LibraryRecord {
  name: string;
  ids: PaperIds;
  title: string | null;
  authors: string[];
  year: number | null;
  venue: string | null;
  /** Where the PDF was downloaded from (credential-free). */
  source_url: string;
  /** The licence the record states (e.g. `cc-by`), null when none is stated. */
  licence: string | null;
  /** YYYY-MM-DD, when it was saved. */
  retrieved: string;
  pages: number;
  bytes: number;
}

export type IdKind = keyof PaperIds;

/** Longest name kept whole; longer DOIs are cut and end in a hash of the whole id. */
const MAX_NAME = 160;

/**
 * The library name of an id: `<kind>-<id>`, lower-case for DOIs (which compare case-insensitively), arXiv
 * ids without their version. Characters other than letters, digits, `.` and `-` are written `~XX` (their
 * UTF-8 bytes in hex), except `/`, which is `_` (so `10.1038/srep16696` is `doi-10.1038_srep16696`); a `.`
 * after a `.` is escaped too, so no name holds `..`. Injective: `_` and `~` only ever come from the rule.
 * @example libraryName("arxiv", "2501.11120v2") // "arxiv-2501.11120"
 * @example libraryName("doi", "10.1038/SREP16696") // "doi-10.1038_srep16696"
 */
export function libraryName(kind: IdKind, id: string): string {
  const canonical = kind === "doi" ? id.toLowerCase() : kind === "arxiv" ? id.replace(/v\d+$/, "") : id;
  let body = "";
  for (const ch of canonical) {
    if (ch === "/") body += "_";
    else if (/[A-Za-z0-9-]/.test(ch) || (ch === "." && !body.endsWith("."))) body += ch;
    else {body += [...new TextEncoder().encode(ch)].map((b) => `~${b.toString(16).toUpperCase().padStart(2, "0")}`)
        .join("");}
  }
  const name = `${kind}-${body}`;
  if (name.length <= MAX_NAME) return name;
  const hash = sha256Hex(`${kind}:${canonical}`).slice(0, 16);
  return `${name.slice(0, MAX_NAME - 18)}~~${hash}`;
}

/** The record of `name`, or undefined when the library has no such paper (or its sidecar is unreadable). */
export async function readRecord(dir: string, name: string): Promise<LibraryRecord | undefined> {
  if (pdfNameProblem(name)) return undefined;
  try {
    const record = JSON.parse(await Deno.readTextFile(`${dir}/${name}.json`)) as LibraryRecord;
    await Deno.stat(`${dir}/${name}.pdf`);
    return record && typeof record === "object" ? { ...record, name } : undefined;
  } catch {
    return undefined;
  }
}

/** Every readable sidecar of the library, by name (a missing folder is an empty library). */
export async function libraryRecords(dir: string): Promise<Map<string, LibraryRecord>> {
  const records = new Map<string, LibraryRecord>();
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const record = await readRecord(dir, entry.name.slice(0, -5));
      if (record) records.set(record.name, record);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return records;
}

/** The saved paper carrying any of `ids` (DOIs compared case-insensitively, arXiv ids without version). */
export async function findSaved(dir: string, ids: PaperIds): Promise<LibraryRecord | undefined> {
  const key = (kind: string, id: string) => `${kind}:${libraryName(kind as IdKind, id)}`;
  const wanted = new Set(Object.entries(ids).filter(([, v]) => v).map(([k, v]) => key(k, v!)));
  for (const [kind, id] of Object.entries(ids)) {
    if (!id) continue;
    const direct = await readRecord(dir, libraryName(kind as IdKind, id));
    if (direct) return direct;
  }
  for (const record of (await libraryRecords(dir)).values()) {
    if (Object.entries(record.ids ?? {}).some(([k, v]) => typeof v === "string" && wanted.has(key(k, v)))) {
      return record;
    }
  }
  return undefined;
}

/**
 * Keeps `bytes` as `<dir>/<name>.pdf` and the record as `<dir>/<name>.json`, creating the folder. Each file
 * is written to a new temporary file in the folder (createNew: never an existing file or link) and renamed
 * into place; the PDF first, so a sidecar always has its PDF.
 */
export async function keepPaper(dir: string, record: LibraryRecord, bytes: Uint8Array): Promise<void> {
  const problem = pdfNameProblem(record.name);
  if (problem) throw new Error(`library name ${JSON.stringify(record.name)} ${problem}`);
  await Deno.mkdir(dir, { recursive: true });
  await writeInto(dir, `${record.name}.pdf`, bytes);
  await writeInto(dir, `${record.name}.json`, new TextEncoder().encode(JSON.stringify(record, null, 2) + "\n"));
}

async function writeInto(dir: string, file: string, bytes: Uint8Array): Promise<void> {
  const temp = `${dir}/.${file}.${crypto.randomUUID().slice(0, 8)}.partial`;
  try {
    await Deno.writeFile(temp, bytes, { createNew: true });
    await Deno.rename(temp, `${dir}/${file}`);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
