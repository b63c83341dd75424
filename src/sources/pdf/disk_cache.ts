/**
 * Extracted text on disk (in SCIENCE_MCP_CACHE_DIR), so a restarted server answers at once instead of
 * extracting again. One JSON file per document version, named by a hash of its key (real path, size,
 * mtime); the key is stored inside too and checked on read. Writes go to a temporary file renamed into
 * place, so a crash never leaves a half-written entry. The cache is best effort: any failure is logged
 * and the caller simply extracts.
 */
import type { Logger } from "../../core/log.ts";
import type { PdfText } from "./types.ts";

/** Bump when extraction changes what it produces, so older entries are ignored. */
const FORMAT = "science-mcp-pdf-text/1 pdfjs-6.5.438";

interface Entry extends PdfText {
  format: string;
  key: string;
}

export class DiskTextCache {
  readonly #dir: string;

  constructor(cacheDir: string) {
    this.#dir = `${cacheDir.replace(/[/\\]+$/, "")}/pdf-text`;
  }

  async get(key: string, log?: Logger): Promise<PdfText | undefined> {
    const path = await this.#path(key);
    let raw: string;
    try {
      raw = await Deno.readTextFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) this.#warn(log, "read", error);
      return undefined;
    }
    try {
      const entry = JSON.parse(raw) as Entry;
      if (entry.format !== FORMAT || entry.key !== key || !Array.isArray(entry.pages)) return undefined;
      return { pageCount: entry.pageCount, pages: entry.pages };
    } catch (error) {
      this.#warn(log, "parse", error);
      return undefined;
    }
  }

  async set(key: string, text: PdfText, log?: Logger): Promise<void> {
    const path = await this.#path(key);
    const temp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.mkdir(this.#dir, { recursive: true });
      const entry: Entry = { format: FORMAT, key, pageCount: text.pageCount, pages: text.pages };
      await Deno.writeTextFile(temp, JSON.stringify(entry));
      await Deno.rename(temp, path);
    } catch (error) {
      this.#warn(log, "write", error);
      await Deno.remove(temp).catch(() => {});
    }
  }

  async #path(key: string): Promise<string> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${FORMAT}\n${key}`));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    return `${this.#dir}/${hex}.json`;
  }

  #warn(log: Logger | undefined, action: string, error: unknown): void {
    log?.warn(`PDF text cache: could not ${action} an entry`, { dir: this.#dir, error: String(error) });
  }
}
