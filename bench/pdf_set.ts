/**
 * Issue #36's bench set for the PDF benchmarks, and what the rows compare against: the five papers and two
 * books (where they are found), a phrase per document that must be found, fresh PDF_ROOT folders, and the
 * physical reference `pdftotext FILE - | grep -ciF PHRASE` (its CPU from bash's `time`: the shell's and its
 * children's user + system). Not a `*_bench.ts` file.
 */
import { join } from "node:path";
import { REPO } from "./pdf_server.ts";

export interface BenchDoc {
  /** File name in the corpus (also the name the server lists it under, without `.pdf`). */
  file: string;
  /** A phrase the document holds: search_pdf gets it quoted and must find it (total_matches > 0). */
  query: string;
  pages: number;
}

/** The five papers of #36 (../shared/corpus/pdf). */
export const PAPERS: BenchDoc[] = [
  { file: "papermage__2020.acl-main.447.pdf", query: "full text", pages: 15 },
  { file: "papermage__2304.02623v1.pdf", query: "expository writing", pages: 4 },
  { file: "cermine__bmc_research_article.pdf", query: "quality improvement", pages: 10 },
  { file: "scienceparse__map-reduce.pdf", query: "intermediate key", pages: 13 },
  { file: "pdfjs__tracemonkey.pdf", query: "trace tree", pages: 14 },
];

/** The 352-page book of #36 (Lessig, "Free Culture"). */
export const BOOK_352: BenchDoc = { file: "pdfjs__freeculture.pdf", query: "Walt Disney", pages: 352 };

/**
 * A 117-page book: the corpus holds none, so the bench binds one, a proceedings-like volume of eleven corpus
 * documents joined by poppler's `pdfunite` (18 + 17 + 15 + 14 + 13 + 13 + 4 + 8 + 10 + 4 + 1 pages) — many
 * fonts and page styles, as in a thesis or proceedings. pdfjs__TAMReview is left out: pdfunite's copy of it
 * has a broken cross-reference that pdftotext must reconstruct.
 */
export const BOOK_117: BenchDoc & { parts: string[] } = {
  file: "built__volume117.pdf",
  query: "semantic scholar",
  pages: 117,
  parts: [
    "docling__redp5110_sampled.pdf",
    "scienceparse__superscripttest.pdf",
    "papermage__2020.acl-main.447.pdf",
    "pdfjs__tracemonkey.pdf",
    "papermage__papermage.pdf",
    "scienceparse__map-reduce.pdf",
    "cermine__bmc_review_dvt.pdf",
    "arxivpy__1111.2011v2.pdf",
    "cermine__bmc_research_article.pdf",
    "papermage__2304.02623v1.pdf",
    "pdfplumber__scotus-transcript-p1.pdf",
  ],
};

/** A paper outside the bench set that a server searches first in the "extractor running" rows. */
export const WARM_UP: BenchDoc = { file: "scienceparse__superscripttest.pdf", query: "influential nodes", pages: 17 };

/** Ten PDFs of fixtures/pdf (papers and short documents; none needs pdf.js, none fails): the folder of 40. */
export const TEN = [
  "scienceparse__superscripttest.pdf",
  "scienceparse__map-reduce.pdf",
  "pypdf__multicolumn.pdf",
  "built__three_columns.pdf",
  "docling__right_to_left_01.pdf",
  "pdfjs__ArabicCIDTrueType.pdf",
  "pdfjs__copy_paste_ligatures.pdf",
  "pdfjs__issue12823.pdf",
  "built__hebrew_rtl.pdf",
  "pdfjs__issue9972-1.pdf",
];

/** Folders searched for corpus files: the shared corpus next to the repository (main or a worktree), then fixtures. */
const DIRS = [
  join(REPO, "../shared/corpus/pdf"),
  join(REPO, "../../shared/corpus/pdf"),
  join(REPO, "fixtures/pdf"),
];

/** Where `file` is, or undefined. The 117-page book is built on first use into a temp folder. */
export async function locate(file: string): Promise<string | undefined> {
  if (file === BOOK_117.file) return await volume();
  for (const dir of DIRS) {
    const path = join(dir, file);
    if (await Deno.stat(path).then((s) => s.isFile, () => false)) return path;
  }
  return undefined;
}

let built: Promise<string | undefined> | undefined;

function volume(): Promise<string | undefined> {
  built ??= (async () => {
    const parts = await Promise.all(BOOK_117.parts.map(locate));
    if (parts.some((p) => p === undefined)) return undefined;
    const dir = await Deno.makeTempDir({ prefix: "pdf_bench_volume_" });
    const out = join(dir, BOOK_117.file);
    const made = await new Deno.Command("pdfunite", {
      args: [...parts as string[], out],
      stdout: "null",
      stderr: "null",
    })
      .output().catch(() => undefined);
    return made?.success ? out : undefined;
  })();
  return built;
}

/** Removes the built volume (call once at the end of a module). */
export async function cleanUp(): Promise<void> {
  const path = await built;
  built = undefined;
  if (path) await Deno.remove(join(path, ".."), { recursive: true }).catch(() => {});
}

/**
 * A fresh folder holding `copies` copies of each of `paths`. With more than one copy, each is made a file of its
 * own by a comment after the PDF's end (`%copy N`), which every reader ignores.
 */
export async function freshFolder(paths: readonly string[], copies = 1): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "pdf_bench_" });
  for (let copy = 0; copy < copies; copy++) {
    for (const path of paths) {
      const name = path.split("/").pop()!;
      if (copies === 1) {
        await Deno.copyFile(path, join(root, name));
        continue;
      }
      const bytes = await Deno.readFile(path);
      const tail = new TextEncoder().encode(`\n%copy ${copy}\n`);
      const copied = new Uint8Array(bytes.length + tail.length);
      copied.set(bytes);
      copied.set(tail, bytes.length);
      await Deno.writeFile(join(root, `${copy}_${name}`), copied);
    }
  }
  return root;
}

/** The name list_pdfs gives `path` (its file name without `.pdf`). */
export function pdfName(path: string): string {
  return path.split("/").pop()!.replace(/\.pdf$/, "");
}

/**
 * CPU of `pdftotext FILE - | grep -ciF PHRASE` over `files` in one shell (bash `time`: user + system of the
 * shell and its children, microsecond resolution), and the summed count of matching lines.
 */
export async function pdftotextGrep(
  files: readonly string[],
  phrase: string,
): Promise<{ cpuMs: number; lines: number }> {
  const script = `TIMEFORMAT="%3U %3S"; time (for f in "$@"; do pdftotext -q "$f" - | grep -ciF -- "$0"; done)`;
  const out = await new Deno.Command("bash", {
    args: ["-c", script, phrase, ...files],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const [user, system] = new TextDecoder().decode(out.stderr).trim().split("\n").pop()!.split(/\s+/).map(Number);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n").reduce((a, n) => a + Number(n || 0), 0);
  if (!Number.isFinite(user + system)) throw new Error(`pdftotext | grep gave no time for ${files.join(", ")}`);
  return { cpuMs: 1000 * (user + system), lines };
}

/** pdftotext's text of `file`. */
export async function pdftotextText(file: string): Promise<string> {
  const out = await new Deno.Command("pdftotext", { args: ["-q", file, "-"], stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

function tokens(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().replace(/-\s*\n\s*/g, "").match(/[\p{L}\p{N}]+/gu) ?? [];
}

function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of tokens(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/**
 * Word recall that forgives pdftotext's own splits: a run of 2–4 of its words that `text` has as one word counts as
 * found (pdftotext gives small capitals as separate words, "G ROBID", "L AT E X", where PDFium gives "GROBID").
 */
export function splitTolerantRecall(text: string, reference: string): number {
  const ours = words(text);
  const take = (word: string) => {
    const n = ours.get(word) ?? 0;
    if (n > 0) ours.set(word, n - 1);
    return n > 0;
  };
  const ref = tokens(reference);
  let found = 0;
  for (let i = 0; i < ref.length; i++) {
    if (take(ref[i])) {
      found++;
      continue;
    }
    for (let k = 2; k <= 4 && i + k <= ref.length; k++) {
      if (take(ref.slice(i, i + k).join(""))) {
        found += k;
        i += k - 1;
        break;
      }
    }
  }
  return ref.length ? found / ref.length : 1;
}

/**
 * Word recall against pdftotext: the share of pdftotext's words (NFKC, lower case, line-end hyphens joined,
 * with multiplicity) that `text` also has (pdf_engines_bench.ts measures with it too).
 */
export function wordRecall(text: string, reference: string): number {
  const ours = words(text);
  let shared = 0;
  let total = 0;
  for (const [word, n] of words(reference)) {
    total += n;
    shared += Math.min(n, ours.get(word) ?? 0);
  }
  return total ? shared / total : 1;
}
