/**
 * Extracted text and its search index on disk (in SCIENCE_MCP_CACHE_DIR), so a restarted server answers
 * at once: no extraction, no indexing, no worker start. One file per document version, named by a hash
 * of its key (real path, size, mtime); the key is stored inside too and checked on read. Writes go to a
 * temporary file renamed into place, so a crash never leaves a half-written entry. The cache is best
 * effort: any failure is logged and the caller simply extracts.
 *
 * File layout: "SMPDF1\n", the JSON header's byte length (uint32 LE), the JSON header
 * {format, key, pageCount, pages, unreadable?, folded}, zero padding to a multiple of 4, then the index's
 * `from` and `to` offset arrays (uint32 LE, `folded.length` each).
 *
 * Beside it, `<hash>.json` holds the small verdict {format, key, status, pageCount, unreadable?, failure?}
 * that list_pdfs reads without loading any text; for a PDF that cannot be searched it is the only entry,
 * so a hostile file is not extracted again after a restart.
 */
import type { Logger } from "../../core/log.ts";
import type { SearchIndex } from "./normalize.ts";
import type { PdfFailure, PdfText, UnreadablePage } from "./types.ts";

/** Bump when extraction or folding changes what they produce, so older entries are ignored. */
const FORMAT = "science-mcp-pdf/3 pdfjs-6.5.438";
const MAGIC = new TextEncoder().encode("SMPDF1\n");

interface Header extends PdfText {
  format: string;
  key: string;
  folded: string;
}

export interface CachedDocument {
  text: PdfText;
  index: SearchIndex;
}

/** What is known about one document version without its text. */
export interface Verdict {
  status: "ready" | "failed";
  pageCount: number;
  unreadable?: UnreadablePage[];
  failure?: { reason: PdfFailure; message: string };
}

export class DiskTextCache {
  readonly #dir: string;

  constructor(cacheDir: string) {
    this.#dir = `${cacheDir.replace(/[/\\]+$/, "")}/pdf-text`;
  }

  async get(key: string, log?: Logger): Promise<CachedDocument | undefined> {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(await this.#path(key));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) warn(log, this.#dir, "read", error);
      return undefined;
    }
    try {
      return decode(bytes, key);
    } catch (error) {
      warn(log, this.#dir, "decode", error);
      return undefined;
    }
  }

  async set(key: string, doc: CachedDocument, log?: Logger): Promise<void> {
    await this.#write(await this.#path(key), encode(key, doc), log);
  }

  async getVerdict(key: string, log?: Logger): Promise<Verdict | undefined> {
    try {
      const stored = JSON.parse(await Deno.readTextFile(await this.#path(key, "json")));
      return stored.format === FORMAT && stored.key === key ? stored.verdict as Verdict : undefined;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) warn(log, this.#dir, "read", error);
      return undefined;
    }
  }

  async setVerdict(key: string, verdict: Verdict, log?: Logger): Promise<void> {
    await this.#write(
      await this.#path(key, "json"),
      new TextEncoder().encode(JSON.stringify({ format: FORMAT, key, verdict })),
      log,
    );
  }

  async #write(path: string, bytes: Uint8Array, log?: Logger): Promise<void> {
    const temp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.mkdir(this.#dir, { recursive: true });
      await Deno.writeFile(temp, bytes);
      await Deno.rename(temp, path);
    } catch (error) {
      warn(log, this.#dir, "write", error);
      await Deno.remove(temp).catch(() => {});
    }
  }

  async #path(key: string, extension = "bin"): Promise<string> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${FORMAT}\n${key}`));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    return `${this.#dir}/${hex}.${extension}`;
  }
}

function encode(key: string, { text, index }: CachedDocument): Uint8Array {
  const header: Header = { format: FORMAT, key, ...text, folded: index.text };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const arraysAt = align4(MAGIC.length + 4 + json.length);
  const out = new Uint8Array(arraysAt + index.from.byteLength + index.to.byteLength);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(MAGIC.length, json.length, true);
  out.set(json, MAGIC.length + 4);
  out.set(new Uint8Array(index.from.buffer, index.from.byteOffset, index.from.byteLength), arraysAt);
  out.set(new Uint8Array(index.to.buffer, index.to.byteOffset, index.to.byteLength), arraysAt + index.from.byteLength);
  return out;
}

function decode(bytes: Uint8Array, key: string): CachedDocument | undefined {
  if (bytes.length < MAGIC.length + 4 || MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(MAGIC.length, true);
  const json = bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + jsonLength);
  const header = JSON.parse(new TextDecoder().decode(json)) as Header;
  if (header.format !== FORMAT || header.key !== key || !Array.isArray(header.pages)) return undefined;
  const units = header.folded.length;
  const arraysAt = align4(MAGIC.length + 4 + jsonLength);
  if (bytes.length !== arraysAt + 8 * units) return undefined;
  const arrays = bytes.slice(arraysAt).buffer;
  return {
    text: header.unreadable?.length
      ? { pageCount: header.pageCount, pages: header.pages, unreadable: header.unreadable }
      : { pageCount: header.pageCount, pages: header.pages },
    index: {
      text: header.folded,
      from: new Uint32Array(arrays, 0, units),
      to: new Uint32Array(arrays, 4 * units, units),
    },
  };
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function warn(log: Logger | undefined, dir: string, action: string, error: unknown): void {
  log?.warn(`PDF text cache: could not ${action} an entry`, { dir, error: String(error) });
}
