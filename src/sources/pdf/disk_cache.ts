/**
 * Extracted text and its search index on disk (in SCIENCE_MCP_CACHE_DIR), so a restarted server answers
 * at once: no extraction, no indexing, no worker start. One file per document version, named by a hash
 * of its key (real path, size, mtime); the key is stored inside too and checked on read. Writes go to a
 * temporary file renamed into place, so a crash never leaves a half-written entry. The cache is best
 * effort: any failure is logged and the caller simply extracts.
 *
 * File layout: "SMPDF1\n", the JSON header's byte length (uint32 LE), the JSON header
 * {format, key, pageCount, pages, folded}, zero padding to a multiple of 4, then the index's `from` and
 * `to` offset arrays (uint32 LE, `folded.length` each).
 */
import type { Logger } from "../../core/log.ts";
import type { SearchIndex } from "./normalize.ts";
import type { PdfText } from "./types.ts";

/** Bump when extraction or folding changes what they produce, so older entries are ignored. */
const FORMAT = "science-mcp-pdf/2 pdfjs-6.5.438";
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
    const path = await this.#path(key);
    const temp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.mkdir(this.#dir, { recursive: true });
      await Deno.writeFile(temp, encode(key, doc));
      await Deno.rename(temp, path);
    } catch (error) {
      warn(log, this.#dir, "write", error);
      await Deno.remove(temp).catch(() => {});
    }
  }

  async #path(key: string): Promise<string> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${FORMAT}\n${key}`));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    return `${this.#dir}/${hex}.bin`;
  }
}

function encode(key: string, { text, index }: CachedDocument): Uint8Array {
  const header: Header = { format: FORMAT, key, pageCount: text.pageCount, pages: text.pages, folded: index.text };
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
    text: { pageCount: header.pageCount, pages: header.pages },
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
