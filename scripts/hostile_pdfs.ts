/**
 * Hostile PDFs through search_pdf: each file is copied into a fresh PDF_ROOT and searched once through
 * the MCP path (first search: worker start, extraction, indexing), timed, with the process's resident
 * memory sampled every 10 ms (the extraction workers are threads of this process, so their memory
 * counts). search_pdf reports unreadable PDFs as results with an `error`, never as a tool error.
 *
 * The PDFs are the corpus's hostile files plus a decompression bomb built at run time
 * ({@link decompressionBomb}). Extraction runs in separate processes, whose memory is not counted here.
 *
 * Usage: `deno run -A scripts/hostile_pdfs.ts [DIR]` (default ../shared/corpus/pdf, then fixtures/pdf).
 */
import { writePdf } from "../src/sources/pdf/pdf_writer.ts";
import { join } from "node:path";
import process from "node:process";
import { constants, deflateRawSync } from "node:zlib";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/core/log.ts";
import { createRuntime } from "../src/runtime.ts";
import { Client, InMemoryTransport } from "../src/sdk_client.ts";
import { createMcpServer } from "../src/server.ts";
import { toolContext } from "../src/runtime.ts";
import { workerExtractor } from "../src/sources/pdf/extractor.ts";

export interface HostilePdf {
  file: string;
  kind: string;
  /** The `error` search_pdf must report, or "opens" when the PDF must be searchable. */
  expect: RegExp | "opens";
}

/** The hostile part of the corpus (see ../shared/corpus/MANIFEST.tsv) and what each must produce. */
export const HOSTILE_PDFS: readonly HostilePdf[] = [
  { file: "pdfplumber__empty.pdf", kind: "zero-byte", expect: /empty \(0 bytes\)/ },
  { file: "pdfjs__bug1020226.pdf", kind: "corrupt (184 bytes)", expect: /not a valid PDF|damaged/ },
  { file: "pdfjs__poppler-742-0-fuzzed.pdf", kind: "corrupt, fuzzed", expect: /not a valid PDF|damaged/ },
  { file: "pypdf__unreadablemetadata.pdf", kind: "broken trailer (Invalid Root)", expect: /not a valid PDF|damaged/ },
  { file: "pdfjs__Pages-tree-refs.pdf", kind: "circular page tree (page 1 salvaged)", expect: "opens" },
  { file: "pdfjs__GHOSTSCRIPT-698804-1-fuzzed.pdf", kind: "fuzzed, no text", expect: /no text layer/ },
  { file: "pdfplumber__malformed-from-issue-932.pdf", kind: "malformed, 14 chars", expect: /no text layer/ },
  { file: "pdfjs__issue3371.pdf", kind: "password-protected", expect: /password/ },
  { file: "pypdf__libreoffice-writer-password.pdf", kind: "password-protected", expect: /password/ },
  { file: "pdfjs__issue9972-1.pdf", kind: "encrypted, empty user password", expect: "opens" },
  { file: "pdfjs__bug1815476.pdf", kind: "encrypted, empty user password", expect: "opens" },
  { file: "pdfjs__scan-bad.pdf", kind: "scanned, no text layer", expect: /no text layer/ },
  {
    file: "pdfjs__vertical.pdf",
    kind: "vertical CJK (PDFium reads its 8 characters, as pdftotext does)",
    expect: "opens",
  },
  { file: "pdfjs__freeculture.pdf", kind: "very long (352 pages)", expect: "opens" },
];

/**
 * A decompression bomb, built here rather than committed: one page whose FlateDecode content stream is
 * about 1 KB per MiB it inflates to (4 MB → 4 GiB of zeros by default). zlib's output for one MiB of
 * zeros after a full flush is byte-aligned and the same every time, so it is compressed once and
 * repeated; an empty final block and the Adler-32 of the zeros close a valid zlib stream.
 */
export function decompressionBomb(inflatedMiB = 4096): Uint8Array {
  const block = deflateRawSync(new Uint8Array(1 << 20), { finishFlush: constants.Z_FULL_FLUSH });
  const inflated = inflatedMiB * (1 << 20);
  const adler = (((inflated % 65521) << 16) | 1) >>> 0;
  const stream = new Uint8Array(2 + block.length * inflatedMiB + 2 + 4);
  stream.set([0x78, 0x9c], 0);
  for (let i = 0; i < inflatedMiB; i++) stream.set(block, 2 + i * block.length);
  const tail = 2 + block.length * inflatedMiB;
  stream.set([0x03, 0x00, adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff], tail);
  return writePdf([
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"],
    [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, "\nendstream"],
  ], "1.7");
}

/** Whether an outcome is what `pdf` must produce. */
export function meetsExpectation(pdf: HostilePdf, outcome: PdfOutcome): boolean {
  if (outcome.toolError) return false;
  return pdf.expect === "opens" ? outcome.opened : !outcome.opened && pdf.expect.test(outcome.error ?? "");
}

/** The path of `file` in the first of `dirs` that has it. */
export async function locate(file: string, dirs: readonly string[] = CORPUS_DIRS): Promise<string | undefined> {
  for (const dir of dirs) {
    try {
      const path = join(dir, file);
      if ((await Deno.stat(path)).isFile) return path;
    } catch { /* not in this one */ }
  }
  return undefined;
}

export interface PdfOutcome {
  file: string;
  bytes: number;
  /** `error: …` from search_pdf, `N pages, M matches`, or the tool error / protocol failure. */
  outcome: string;
  opened: boolean;
  error?: string;
  toolError?: string;
  pages: number;
  ms: number;
  /** Peak RSS during the call minus RSS just before it. */
  peakRssDelta: number;
  peakRss: number;
}

const MIB = 1024 * 1024;

/** Where the corpus lives relative to the repository, then the fixtures copy of part of it. */
export const CORPUS_DIRS = [
  new URL("../../shared/corpus/pdf", import.meta.url).pathname,
  new URL("../fixtures/pdf", import.meta.url).pathname,
];

export async function pdfsIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile && entry.name.endsWith(".pdf")) names.push(entry.name);
  return names.sort();
}

/** Searches `file` (a path) for `query` in a fresh runtime whose PDF_ROOT holds only a copy of it. */
export async function searchHostilePdf(
  file: string,
  options: { query?: string; env?: Record<string, string> } = {},
): Promise<PdfOutcome> {
  const root = await Deno.makeTempDir({ prefix: "hostile_pdf_" });
  const base = file.split("/").pop()!;
  const name = base.replace(/\.pdf$/, "").replace(/[^\w.-]/g, "_");
  await Deno.copyFile(file, join(root, `${name}.pdf`));
  const runtime = createRuntime({
    config: loadConfig({ PDF_ROOT: root, ...options.env }),
    log: createLogger({ level: "error", sinks: [] }),
  });
  const server = createMcpServer(runtime);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "hostile-pdfs", version: "1" });
  await server.connect(b);
  await client.connect(a);
  const before = Deno.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 10);
  const started = performance.now();
  try {
    const result = await client.callTool(
      { name: "search_pdf", arguments: { pdf_name: name, query: options.query ?? "the", topk: 3 } },
      { timeout: 600_000 },
    );
    const ms = performance.now() - started;
    peak = Math.max(peak, Deno.memoryUsage().rss);
    const s = result.structuredContent as Record<string, unknown>;
    const common = { file: base, bytes: (await Deno.stat(file)).size, ms, peakRss: peak, peakRssDelta: peak - before };
    if (result.isError) {
      const code = s.error as { code: string; message: string };
      return {
        ...common,
        outcome: `tool error ${code.code}: ${code.message}`,
        opened: false,
        pages: 0,
        toolError: code.code,
      };
    }
    const pages = Number(s.page_count ?? 0);
    if (typeof s.error === "string") {
      return { ...common, outcome: `error: ${s.error}`, opened: false, error: s.error, pages };
    }
    return { ...common, outcome: `${pages} pages, ${s.total_matches} matches`, opened: true, pages };
  } finally {
    clearInterval(sampler);
    await client.close();
    await server.close();
    await runtime.close();
    await Deno.remove(root, { recursive: true });
  }
}

export interface BombAftermath {
  /** Time until search_pdf answered. */
  ms: number;
  error: string;
  /** This process's (the server's) RSS 10 s after the answer. */
  rssAfter: number;
  /** CPU the server used during 1 s, 10 s after the answer. */
  serverCpuMs: number;
  /** Extractor processes that read the bomb and still exist 10 s after the answer. */
  survivors: number;
  /** Time of the repeated call (the remembered verdict). */
  repeatMs: number;
}

/**
 * The decompression bomb through search_pdf with the production extractor, and what is left 10 s after
 * the answer: the server's RSS and CPU, and whether the extractor that read it still exists (Linux /proc).
 */
export async function bombAftermath(): Promise<BombAftermath> {
  const root = await Deno.makeTempDir({ prefix: "pdf_bomb_" });
  await Deno.writeFile(join(root, "bomb.pdf"), decompressionBomb());
  const runtime = createRuntime({
    config: loadConfig({ PDF_ROOT: root, SCIENCE_MCP_TOOLSETS: "pdf" }),
    log: createLogger({ level: "error", sinks: [] }),
  });
  const server = createMcpServer(runtime);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "pdf-bomb", version: "1" });
  await server.connect(b);
  await client.connect(a);
  const extractor = workerExtractor(toolContext(runtime, { signal: new AbortController().signal, requestId: "bomb" }));
  const seen = new Set<number>();
  const watch = setInterval(() => extractor.pool.pids.forEach((pid) => seen.add(pid)), 10);
  const call = () =>
    client.callTool({ name: "search_pdf", arguments: { pdf_name: "bomb", query: "x" } }, { timeout: 600_000 });
  try {
    const started = performance.now();
    const result = await call();
    const ms = performance.now() - started;
    clearInterval(watch);
    const readers = [...seen].filter((pid) => !extractor.pool.pids.includes(pid));
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const cpuBefore = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const cpu = process.cpuUsage(cpuBefore);
    let survivors = 0;
    for (const pid of readers) {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
      if (stat && stat.split(") ")[1]?.[0] !== "Z") survivors++;
    }
    const repeatStarted = performance.now();
    await call();
    return {
      ms,
      error: String((result.structuredContent as { error?: string }).error ?? ""),
      rssAfter: Deno.memoryUsage().rss,
      serverCpuMs: (cpu.user + cpu.system) / 1000,
      survivors,
      repeatMs: performance.now() - repeatStarted,
    };
  } finally {
    clearInterval(watch);
    await client.close();
    await server.close();
    await runtime.close();
    await Deno.remove(root, { recursive: true });
  }
}

export function formatOutcomes(outcomes: readonly PdfOutcome[]): string {
  const rows = outcomes.map((o) =>
    `${o.file.padEnd(44)} ${(o.bytes / 1024).toFixed(0).padStart(6)} KB ${o.ms.toFixed(0).padStart(6)} ms ` +
    `peak RSS ${(o.peakRss / MIB).toFixed(0).padStart(5)} MiB (+${(o.peakRssDelta / MIB).toFixed(0)})  ${
      o.outcome.slice(0, 110)
    }`
  );
  return rows.join("\n");
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? (await firstExisting(CORPUS_DIRS));
  const bombDir = await Deno.makeTempDir({ prefix: "pdf_bomb_" });
  const bomb = join(bombDir, "built__decompression_bomb.pdf");
  await Deno.writeFile(bomb, decompressionBomb());
  const outcomes: PdfOutcome[] = [];
  for (const path of [...(await pdfsIn(dir)).map((name) => join(dir, name)), bomb]) {
    const outcome = await searchHostilePdf(path);
    console.error(formatOutcomes([outcome]));
    outcomes.push(outcome);
  }
  await Deno.remove(bombDir, { recursive: true });
  console.log(formatOutcomes(outcomes));
}

export async function firstExisting(dirs: readonly string[]): Promise<string> {
  for (const dir of dirs) {
    try {
      if ((await Deno.stat(dir)).isDirectory) return dir;
    } catch { /* try the next */ }
  }
  throw new Error(`none of ${dirs.join(", ")} exists`);
}
