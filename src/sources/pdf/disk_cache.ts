/**
 * Extracted text and its search index on disk (in SCIENCE_MCP_CACHE_DIR), so a restarted server answers
 * at once: no extraction, no indexing, no worker start. One file per document version, named by a hash
 * of its key (real path, size, mtime) and of the format and text engine (engine.ts); the key is stored
 * inside too and checked on read. Writes go to a temporary file renamed into place, so a crash never
 * leaves a half-written entry. Every entry carries a SHA-256 of its content, so an entry edited in place
 * (even to the same length) is ignored rather than served. The cache is best effort: any failure is
 * logged and the caller simply extracts.
 *
 * File layout: "SMPDF2\n", the SHA-256 of everything after it (32 bytes), the JSON header's byte length
 * (uint32 LE), the JSON header {format, key, pageCount, pages, unreadable?, folded}, zero padding to a
 * multiple of 4, then the index's `from` and `to` offset arrays (uint32 LE, `folded.length` each).
 *
 * Beside it, `<hash>.json` holds the small verdict {format, key, verdict, sha256} (verdict: {status,
 * pageCount, unreadable?, failure?}) that list_pdfs reads without loading any text; for a PDF that cannot
 * be searched it is the only entry, so a hostile file is not extracted again after a restart.
 *
 * `filters.json` ({format, filters: {key: base64}, sha256}) gathers the trigram filters of the documents an
 * index-ahead pass covered, so a restarted server checks a whole library with one read instead of one
 * verdict per PDF; a key that no longer names a file version (edited, removed) is simply never asked for.
 *
 * The entries live in `<cache dir>/pdf-text`. If that folder or the cache folder itself is a symbolic
 * link, the cache is refused (one warning) and stays off: the text of the user's PDFs is written only
 * where the operator pointed SCIENCE_MCP_CACHE_DIR, never where a link leads.
 */
import type { Logger } from "../../core/log.ts";
import { PDF_ENGINE, PDF_FALLBACK_ENGINE } from "./engine.ts";
import type { SearchIndex } from "./normalize.ts";
import type { PdfFailure, PdfText, UnreadablePage } from "./types.ts";

/** Bump the number when extraction or folding changes what they produce, so older entries are ignored. */
export const FORMAT = `science-mcp-pdf/7 ${
  [PDF_ENGINE, PDF_FALLBACK_ENGINE].map((engine) => `${engine.name}@${engine.version}`).join("+")
}`;
const MAGIC = new TextEncoder().encode("SMPDF2\n");
/** The snapshot of many documents' trigram filters (see the file comment). */
const FILTERS_FILE = "filters.json";
const DIGEST_BYTES = 32;

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
  /** The document's trigram filter (trigram_filter.ts), base64: search_pdfs skips what cannot match. */
  trigrams?: string;
}

export class DiskTextCache {
  readonly #root: string;
  readonly #dir: string;
  /** Whether the folders are plain folders (checked once; a refused cache stays off). */
  #usable?: Promise<boolean>;

  constructor(cacheDir: string) {
    this.#root = cacheDir.replace(/[/\\]+$/, "");
    this.#dir = `${this.#root}/pdf-text`;
  }

  /** The folder that holds the entries (README: delete it to clear the cache). */
  get dir(): string {
    return this.#dir;
  }

  async get(key: string, log?: Logger): Promise<CachedDocument | undefined> {
    if (!await this.#ready(log)) return undefined;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await Deno.readFile(await this.#path(key));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) warn(log, this.#dir, "read", error);
      return undefined;
    }
    try {
      return await decode(bytes, key);
    } catch (error) {
      warn(log, this.#dir, "decode", error);
      return undefined;
    }
  }

  async set(key: string, doc: CachedDocument, log?: Logger): Promise<void> {
    if (!await this.#ready(log)) return;
    await this.#write(await this.#path(key), await encode(key, doc), log);
  }

  async getVerdict(key: string, log?: Logger): Promise<Verdict | undefined> {
    if (!await this.#ready(log)) return undefined;
    try {
      const stored = JSON.parse(await Deno.readTextFile(await this.#path(key, "json")));
      if (stored.format !== FORMAT || stored.key !== key) return undefined;
      return stored.sha256 === await sha256Hex(JSON.stringify(stored.verdict)) ? stored.verdict as Verdict : undefined;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) warn(log, this.#dir, "read", error);
      return undefined;
    }
  }

  async setVerdict(key: string, verdict: Verdict, log?: Logger): Promise<void> {
    if (!await this.#ready(log)) return;
    const sha256 = await sha256Hex(JSON.stringify(verdict));
    await this.#write(
      await this.#path(key, "json"),
      new TextEncoder().encode(JSON.stringify({ format: FORMAT, key, verdict, sha256 })),
      log,
    );
  }

  /** The filters snapshot (key → base64 trigram filter), or undefined when there is none (or a damaged one). */
  async getFilters(log?: Logger): Promise<Record<string, string> | undefined> {
    if (!await this.#ready(log)) return undefined;
    try {
      const stored = JSON.parse(await Deno.readTextFile(`${this.#dir}/${FILTERS_FILE}`));
      if (stored.format !== FORMAT || typeof stored.filters !== "object" || stored.filters === null) return undefined;
      return stored.sha256 === await sha256Hex(JSON.stringify(stored.filters)) ? stored.filters : undefined;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) warn(log, this.#dir, "read", error);
      return undefined;
    }
  }

  async setFilters(filters: Record<string, string>, log?: Logger): Promise<void> {
    if (!await this.#ready(log)) return;
    const sha256 = await sha256Hex(JSON.stringify(filters));
    const json = JSON.stringify({ format: FORMAT, filters, sha256 });
    await this.#write(`${this.#dir}/${FILTERS_FILE}`, new TextEncoder().encode(json), log);
  }

  /** Whether the cache may be used: neither folder is a symbolic link (else one warning, and it stays off). */
  #ready(log?: Logger): Promise<boolean> {
    return this.#usable ??= (async () => {
      for (const dir of [this.#root, this.#dir]) {
        try {
          if (!(await Deno.lstat(dir)).isSymlink) continue;
        } catch {
          continue; // not there yet: it is made as a plain folder on the first write
        }
        log?.warn(
          `PDF text cache refused: ${dir} is a symbolic link. The cache stays off; make SCIENCE_MCP_CACHE_DIR a ` +
            "plain folder (or point it at the link's target) to use it.",
          { dir },
        );
        return false;
      }
      return true;
    })();
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
    return `${this.#dir}/${await sha256Hex(`${FORMAT}\n${key}`)}.${extension}`;
  }
}

async function encode(key: string, { text, index }: CachedDocument): Promise<Uint8Array> {
  const header: Header = { format: FORMAT, key, ...text, folded: index.text };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bodyAt = MAGIC.length + DIGEST_BYTES;
  const arraysAt = align4(bodyAt + 4 + json.length);
  const out = new Uint8Array(arraysAt + index.from.byteLength + index.to.byteLength);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(bodyAt, json.length, true);
  out.set(json, bodyAt + 4);
  out.set(new Uint8Array(index.from.buffer, index.from.byteOffset, index.from.byteLength), arraysAt);
  out.set(new Uint8Array(index.to.buffer, index.to.byteOffset, index.to.byteLength), arraysAt + index.from.byteLength);
  out.set(new Uint8Array(await crypto.subtle.digest("SHA-256", out.subarray(bodyAt))), MAGIC.length);
  return out;
}

async function decode(bytes: Uint8Array<ArrayBuffer>, key: string): Promise<CachedDocument | undefined> {
  const bodyAt = MAGIC.length + DIGEST_BYTES;
  if (bytes.length < bodyAt + 4 || MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes.subarray(bodyAt)));
  if (digest.some((b, i) => bytes[MAGIC.length + i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(bodyAt, true);
  const json = bytes.subarray(bodyAt + 4, bodyAt + 4 + jsonLength);
  const header = JSON.parse(new TextDecoder().decode(json)) as Header;
  if (header.format !== FORMAT || header.key !== key || !Array.isArray(header.pages)) return undefined;
  const units = header.folded.length;
  const arraysAt = align4(bodyAt + 4 + jsonLength);
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

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function warn(log: Logger | undefined, dir: string, action: string, error: unknown): void {
  log?.warn(`PDF text cache: could not ${action} an entry`, { dir, error: String(error) });
}
