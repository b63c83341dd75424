/**
 * PDF search as a client sees it (#36): a real server over stdio (`deno run -P=stdio main.ts serve`, PDF_ROOT a
 * fresh temp folder per run holding copies of the bench files, no disk cache) against `pdftotext FILE - | grep
 * -ciF PHRASE` on the same files, interleaved (reference, then ours, every round) so both meet the same load.
 * CPU is the whole process tree's (server and extractors, reaped ones included: bench/pdf_server.ts treeCpuMs),
 * from just before the call until the tree's CPU has stopped rising after the answer. Every figure is a median of
 * 5 rounds; every answer is checked (total_matches > 0 for a phrase the document holds). Rows:
 *
 * 1. start of the PDF extractor: CPU of one extractor process of the real pool (createPdfExtractor, pool of one)
 *    from its spawn until it has read a one-page PDF and gone quiet, minus what reading that page again costs it
 *    (so: Deno, the extractor's modules, PDFium's wasm compiled and instantiated): target ≤ 120 ms;
 * 2. first search of a paper on a fresh server (initialize + tools/list, then search_pdf; no extractor yet),
 *    CPU ÷ pdftotext: median per paper over the rounds, then the median over the five papers: ≤ 3×;
 * 3. the same with the extractor running (the server has searched another paper just before, WARM_UP): ≤ 1.5×;
 * 4. search_pdfs over the five papers, fresh server, ÷ a pdftotext | grep loop over them: ≤ 2×;
 * 5. the 117- and 352-page books, extractor running: ≤ 1.2× each;
 * 7a. peak tree RSS while searching one paper (fresh server, sampled every 20 ms during rows 2's calls; the
 *    worst paper's median): ≤ 150 MiB;
 * and text agreement: word recall of the server's text (pdf://files/{name}) against pdftotext's, the worst
 * document of the bench set: ≥ 0.96. Kept from before: a paper indexed ahead (disk cache) ≤ 50 ms, repeated
 * search ≤ 5 ms, first search after a restart with a disk cache ≤ 100 ms.
 * Rows 6 and 7b (idle after a search, folder of 40) are in pdf_idle_bench.ts.
 */
import { join } from "node:path";
import { createPdfExtractor } from "../src/sources/pdf/extractor.ts";
import { loadConfig } from "../src/config.ts";
import { ensurePdftotext, machineLoad, peakTreeRss, REPO, settledCpuMs, StdioServer } from "./pdf_server.ts";
import {
  type BenchDoc,
  BOOK_117,
  BOOK_352,
  cleanUp,
  freshFolder,
  locate,
  PAPERS,
  pdfName,
  pdftotextGrep,
  pdftotextText,
  splitTolerantRecall,
  WARM_UP,
  wordRecall,
} from "./pdf_set.ts";
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const MIB = 1024 * 1024;
const ONE_PAGE = join(REPO, "fixtures/pdf/built__three_columns.pdf");

interface Search {
  cpuMs: number;
  /** The part of cpuMs spent in the server process itself (the rest: extractor processes). */
  serverMs: number;
  wallMs: number;
  peakRss: number;
  /** The server process's own peak RSS during the call. */
  serverPeakRss: number;
  /** Server-side text of the document (pdf://files/{name}), when asked for. */
  text?: string;
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} pdf_bench`;
  const rounds = options.quick ? 1 : 5;
  const rows: BenchRow[] = [await extractorStart(rounds, command)];
  if (!(await ensurePdftotext())) {
    rows.push({ name: "pdf: CPU ÷ pdftotext", value: NaN, unit: "×", command, notes: "skipped: no pdftotext" });
    return rows;
  }
  try {
    const papers = await located(PAPERS);
    const warm = await locate(WARM_UP.file);
    const books = await located([BOOK_117, BOOK_352]);
    if (!papers || !warm || !books) {
      rows.push({
        name: "pdf: bench set",
        value: NaN,
        unit: "",
        pass: false,
        command,
        notes: "the bench set is missing: ../shared/corpus/pdf (and pdfunite for the 117-page book)",
      });
      return rows;
    }
    const recall = new Map<string, Agreement>();
    rows.push(...await firstSearches(papers, rounds, command));
    rows.push(await firstSearchesWarm(papers, warm, rounds, command, recall));
    rows.push(await folderOfPapers(papers, rounds, command));
    for (const book of books) rows.push(await bookSearch(book, warm, rounds, command, recall));
    const worst = Math.min(...[...recall.values()].map((a) => a.recall));
    rows.push({
      name: "pdf: text agreement with pdftotext, word recall (worst of the bench set)",
      value: worst,
      unit: "",
      // The issue's bar: no lower than 0.96, unrounded (0.957 before spacing accents were joined to their letters).
      target: "≥ 0.96",
      pass: worst >= 0.96,
      command,
      notes:
        `share of pdftotext's words (with multiplicity) in the server's pdf://files text: ${
          [...recall].map(([f, a]) => `${pdfName(f)} ${a.recall.toFixed(3)} (${a.tolerant.toFixed(3)})`).join(", ")
        }; in brackets, forgiving pdftotext's splits of small capitals ("G ROBID", "L AT E X" where the server ` +
        `gives one word)`,
    });
  } finally {
    await cleanUp();
  }
  rows.push(await indexedAhead(command));
  rows.push(await repeatedSearch(options.quick ? 20 : 50, command));
  rows.push(await restartWithDiskCache(command));
  return rows;
}

async function located<T extends BenchDoc>(docs: T[]): Promise<(T & { path: string })[] | undefined> {
  const out: (T & { path: string })[] = [];
  for (const doc of docs) {
    const path = await locate(doc.file);
    if (!path) return undefined;
    out.push({ ...doc, path });
  }
  return out;
}

/** Row 1: CPU of one extractor process from spawn to PDFium loaded (see the header). */
async function extractorStart(rounds: number, command: string): Promise<BenchRow> {
  const limits = loadConfig({}).pdf;
  const bytes = await Deno.readFile(ONE_PAGE);
  const starts: number[] = [];
  const pages: number[] = [];
  let note = "";
  for (let i = 0; i < rounds; i++) {
    const extractor = createPdfExtractor(limits, { poolSize: 1 });
    try {
      await extractor.extract(bytes.slice());
      const [pid] = extractor.pool.pids;
      if (pid === undefined) {
        note = "no extractor process (worker threads?)";
        break;
      }
      const first = await settledCpuMs(pid);
      await extractor.extract(bytes.slice());
      const page = (await settledCpuMs(pid)) - first;
      if (extractor.pool.spawned !== 1) throw new Error(`${extractor.pool.spawned} extractors started, not 1`);
      starts.push(first - page);
      pages.push(page);
    } finally {
      await extractor.close();
    }
  }
  const value = starts.length ? median(starts) : NaN;
  return {
    name: "pdf: start of the PDF extractor (process + engine), CPU",
    value,
    unit: "ms",
    target: "≤ 120 ms",
    pass: value <= 120,
    command,
    notes: note ||
      `median of ${starts.length} (${starts.join(", ")}): one pool process's CPU (/proc) from spawn until it has ` +
        `read a 1-page PDF and gone quiet, minus that page read again (${median(pages)} ms); ${machineLoad()}`,
  };
}

/**
 * One search_pdf of `doc` on a fresh server over a fresh folder: CPU of the call (tree, settled before and after),
 * its wall time and the tree's peak RSS during it. With `warm`, the server searches that paper first and the call
 * is measured with its extractor still running.
 */
async function searchOnce(
  doc: BenchDoc & { path: string },
  warm?: string,
  readText = false,
): Promise<Search> {
  const root = await freshFolder(warm ? [doc.path, warm] : [doc.path]);
  const server = new StdioServer(root);
  try {
    await server.initialize();
    await server.request("tools/list");
    if (warm) await server.search(pdfName(warm), WARM_UP);
    const before = await server.settledCpuMs();
    const serverBefore = await server.ownCpuMs();
    const extractors = (await server.processes()) - 1;
    if (warm && extractors < 1) throw new Error("the extractor was gone before the measured search");
    if (!warm && extractors > 0) {
      throw new Error(`${extractors} extractor(s) alive on a fresh server before its first PDF call`);
    }
    const started = performance.now();
    const { peak, serverPeak } = await peakTreeRss(server.pid, server.search(pdfName(doc.path), doc));
    const wallMs = performance.now() - started;
    const cpuMs = (await server.settledCpuMs()) - before;
    const search: Search = {
      cpuMs,
      serverMs: (await server.ownCpuMs()) - serverBefore,
      wallMs,
      peakRss: peak,
      serverPeakRss: serverPeak,
    };
    if (readText) search.text = await resourceText(server, pdfName(doc.path));
    return search;
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

interface Agreement {
  recall: number;
  /** The same, forgiving pdftotext's splits (pdf_set.ts splitTolerantRecall). */
  tolerant: number;
}

async function agreement(text: string, path: string): Promise<Agreement> {
  const reference = await pdftotextText(path);
  return { recall: wordRecall(text, reference), tolerant: splitTolerantRecall(text, reference) };
}

async function resourceText(server: StdioServer, name: string): Promise<string> {
  const reply = await server.request("resources/read", { uri: `pdf://files/${name}` });
  const contents = (reply.result as { contents?: { text?: string }[] } | undefined)?.contents ?? [];
  const text = contents.map((c) => c.text ?? "").join("");
  if (!text) throw new Error(`pdf://files/${name} gave no text: ${JSON.stringify(reply).slice(0, 300)}`);
  return text;
}

async function reference(doc: BenchDoc & { path: string }): Promise<number> {
  const { cpuMs, lines } = await pdftotextGrep([doc.path], doc.query);
  if (lines <= 0) throw new Error(`pdftotext | grep found no "${doc.query}" in ${doc.file}`);
  return cpuMs;
}

/** Per paper: median of ours ÷ median of pdftotext's over the rounds. */
interface PerPaper {
  name: string;
  ours: number;
  ref: number;
  peak: number;
}

function perPaperNotes(per: PerPaper[]): string {
  return per.map((p) => `${p.name} ${(p.ours / p.ref).toFixed(2)}× (${p.ours} vs ${p.ref.toFixed(0)} ms)`).join(", ");
}

/** Rows 2 and 7a: first search of each paper on a fresh server. */
async function firstSearches(
  papers: (BenchDoc & { path: string })[],
  rounds: number,
  command: string,
): Promise<BenchRow[]> {
  const samples = new Map(papers.map((p) => [p.file, { ours: [] as Search[], ref: [] as number[] }]));
  for (let i = 0; i < rounds; i++) {
    for (const paper of papers) {
      const s = samples.get(paper.file)!;
      s.ref.push(await reference(paper));
      s.ours.push(await searchOnce(paper));
    }
  }
  const per: PerPaper[] = papers.map((p) => {
    const s = samples.get(p.file)!;
    return {
      name: pdfName(p.file),
      ours: median(s.ours.map((o) => o.cpuMs)),
      ref: median(s.ref),
      peak: median(s.ours.map((o) => o.peakRss)),
    };
  });
  const ratio = median(per.map((p) => p.ours / p.ref));
  const worstPeak = Math.max(...per.map((p) => p.peak)) / MIB;
  const wall = median(papers.map((p) => median(samples.get(p.file)!.ours.map((o) => o.wallMs))));
  const server = median(papers.flatMap((p) => samples.get(p.file)!.ours.map((o) => o.serverMs)));
  const serverPeak = median(papers.flatMap((p) => samples.get(p.file)!.ours.map((o) => o.serverPeakRss))) / MIB;
  return [
    {
      name: "pdf: first search of a paper on a fresh server ÷ pdftotext, CPU (median per paper)",
      value: ratio,
      unit: "×",
      target: "≤ 3×",
      pass: ratio <= 3,
      command,
      notes: `median over 5 papers of each one's median of ${rounds}: ${perPaperNotes(per)}; ` +
        `server tree CPU from before search_pdf to quiet after it (extractor start included), of which the server ` +
        `process ${server} ms (median of all), the rest the extractor; ` +
        `wall ${wall.toFixed(0)} ms (median); ${machineLoad()}`,
    },
    {
      name: "pdf: tree RSS, peak while searching one paper (fresh server)",
      value: worstPeak,
      unit: "MiB",
      target: "≤ 150 MiB",
      pass: worstPeak <= 150,
      command,
      notes:
        `server + extractor VmRSS summed, sampled every 20 ms during the call; worst paper's median of ${rounds}: ${
          per.map((p) => `${p.name} ${(p.peak / MIB).toFixed(0)}`).join(", ")
        } MiB; the server process's own peak ${serverPeak.toFixed(0)} MiB (median of all), the rest the extractor`,
    },
  ];
}

/** Row 3: first search of each paper, the server having searched WARM_UP just before (extractor running). */
async function firstSearchesWarm(
  papers: (BenchDoc & { path: string })[],
  warm: string,
  rounds: number,
  command: string,
  recall: Map<string, Agreement>,
): Promise<BenchRow> {
  const samples = new Map(papers.map((p) => [p.file, { ours: [] as number[], ref: [] as number[] }]));
  const server: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const paper of papers) {
      const s = samples.get(paper.file)!;
      s.ref.push(await reference(paper));
      const search = await searchOnce(paper, warm, i === 0);
      s.ours.push(search.cpuMs);
      server.push(search.serverMs);
      if (search.text !== undefined) recall.set(paper.file, await agreement(search.text, paper.path));
    }
  }
  const per: PerPaper[] = papers.map((p) => {
    const s = samples.get(p.file)!;
    return { name: pdfName(p.file), ours: median(s.ours), ref: median(s.ref), peak: 0 };
  });
  const ratio = median(per.map((p) => p.ours / p.ref));
  const sum = per.reduce((a, p) => a + p.ours, 0) / per.reduce((a, p) => a + p.ref, 0);
  return {
    name: "pdf: first search of a paper, extractor running ÷ pdftotext, CPU (median per paper)",
    value: ratio,
    unit: "×",
    target: "≤ 1.5×",
    pass: ratio <= 1.5,
    command,
    notes:
      `the server searched ${
        pdfName(WARM_UP.file)
      } just before; median over 5 papers of each one's median of ${rounds}: ` +
      `${perPaperNotes(per)}; the 5 papers summed ${sum.toFixed(2)}×; server process ${
        median(server)
      } ms of each (median), the rest the extractor; ${machineLoad()}`,
  };
}

/** Row 4: search_pdfs over a fresh folder of the five papers on a fresh server. */
async function folderOfPapers(
  papers: (BenchDoc & { path: string })[],
  rounds: number,
  command: string,
): Promise<BenchRow> {
  const query = "performance"; // in every one of the five
  const extractors: number[] = [];
  const ours: number[] = [];
  const ref: number[] = [];
  const walls: number[] = [];
  for (let i = 0; i < rounds; i++) {
    ref.push((await pdftotextGrep(papers.map((p) => p.path), query)).cpuMs);
    const root = await freshFolder(papers.map((p) => p.path));
    const server = new StdioServer(root);
    try {
      await server.initialize();
      await server.request("tools/list");
      const before = await server.settledCpuMs();
      const started = performance.now();
      const { result, pids } = await peakTreeRss(server.pid, server.call("search_pdfs", { query, per_file: 1 }));
      walls.push(performance.now() - started);
      extractors.push(pids.size);
      ours.push((await server.settledCpuMs()) - before);
      const files = (result.files ?? []) as { total_matches: number }[];
      if (
        result.files_searched !== papers.length || files.length !== papers.length ||
        files.some((f) => !(f.total_matches > 0))
      ) {
        throw new Error(`search_pdfs answered ${JSON.stringify(result).slice(0, 300)}`);
      }
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  }
  const ratio = median(ours) / median(ref);
  return {
    name: "pdf: search_pdfs over 5 new papers, fresh server ÷ pdftotext, CPU",
    value: ratio,
    unit: "×",
    target: "≤ 2×",
    pass: ratio <= 2,
    command,
    notes: `median of ${rounds}: ${median(ours)} ms (server tree, extractor start included) vs ${
      median(ref).toFixed(0)
    } ms (pdftotext | grep loop); extractor processes started: ${
      extractors.join(", ")
    }; "${query}" found in all 5; wall ${median(walls).toFixed(0)} ms; ${machineLoad()}`,
  };
}

/** Row 5: a book's first search with the extractor running. */
async function bookSearch(
  book: BenchDoc & { path: string },
  warm: string,
  rounds: number,
  command: string,
  recall: Map<string, Agreement>,
): Promise<BenchRow> {
  const ours: number[] = [];
  const ref: number[] = [];
  const walls: number[] = [];
  const server: number[] = [];
  for (let i = 0; i < rounds; i++) {
    ref.push(await reference(book));
    const search = await searchOnce(book, warm, i === 0);
    ours.push(search.cpuMs);
    server.push(search.serverMs);
    walls.push(search.wallMs);
    if (search.text !== undefined) recall.set(book.file, await agreement(search.text, book.path));
  }
  const ratio = median(ours) / median(ref);
  const what = book.file === BOOK_117.file
    ? "117-page book (a volume of 11 corpus documents bound with pdfunite)"
    : "352-page book (Free Culture)";
  return {
    name: `pdf: ${what}, extractor running ÷ pdftotext, CPU`,
    value: ratio,
    unit: "×",
    target: "≤ 1.2×",
    pass: ratio <= 1.2,
    command,
    notes: `median of ${rounds}: ${median(ours)} (server process ${median(server)}, the rest the extractor) vs ${
      median(ref).toFixed(0)
    } ms; the server searched ${pdfName(WARM_UP.file)} just before; wall ${
      median(walls).toFixed(0)
    } ms; ${machineLoad()}`,
  };
}

// ---- Rows kept from before #36: the disk cache and repeated searches ----

const FIXTURES = join(REPO, "fixtures/pdf");
const SAMPLE = join(REPO, "files/dvt_prophylaxis_review.pdf");
const PAPER = { file: "scienceparse__superscripttest.pdf", query: "influential nodes" };
const BOOK = { file: "pdfjs__freeculture.pdf", query: "Walt Disney" };

/** A PDF_ROOT holding the sample paper, as a fresh install has. */
async function sampleRoot(): Promise<string> {
  return await freshFolder([SAMPLE]);
}

/** With a disk cache: the first search of a paper that was in PDF_ROOT at start, once indexed ahead. */
async function indexedAhead(command: string): Promise<BenchRow> {
  const root = await sampleRoot();
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_bench_ahead_" });
  await Deno.copyFile(join(FIXTURES, PAPER.file), join(root, "paper.pdf"));
  const server = new StdioServer(root, cacheDir);
  try {
    await server.initialize();
    // Two PDFs in PDF_ROOT: two verdicts once the background pass is through; then its extractors go.
    const entries = () => [...Deno.readDirSync(join(cacheDir, "pdf-text"))].filter((e) => e.name.endsWith(".json"));
    for (let waited = 0; waited < 120_000; waited += 100) {
      if (await Deno.stat(join(cacheDir, "pdf-text")).then(() => entries().length >= 2, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    while (await server.processes() > 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const value = await server.search("paper", PAPER);
    return {
      name: "pdf: first search of a paper indexed ahead, 17-page paper (disk cache)",
      value,
      unit: "ms",
      target: "≤ 50 ms",
      pass: value <= 50,
      command,
      notes: `wall; SCIENCE_MCP_CACHE_DIR set; the background pass had indexed PDF_ROOT and released its extractors`,
    };
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
}

async function repeatedSearch(times: number, command: string): Promise<BenchRow> {
  const root = await sampleRoot();
  await Deno.copyFile(join(FIXTURES, BOOK.file), join(root, "book.pdf"));
  const server = new StdioServer(root);
  try {
    await server.initialize();
    await server.search("book", BOOK);
    const samples: number[] = [];
    for (let i = 0; i < times; i++) samples.push(await server.search("book", BOOK));
    const value = median(samples);
    return {
      name: "pdf: repeated search, 352-page book (text in memory)",
      value,
      unit: "ms",
      target: "≤ 5 ms",
      pass: value <= 5,
      command,
      notes: `wall, median of ${times} over stdio (10 contexts of 2000 characters)`,
    };
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function restartWithDiskCache(command: string): Promise<BenchRow> {
  const root = await sampleRoot();
  const cacheDir = await Deno.makeTempDir({ prefix: "pdf_bench_cache_" });
  await Deno.copyFile(join(FIXTURES, BOOK.file), join(root, "book.pdf"));
  try {
    const before = new StdioServer(root, cacheDir);
    await before.initialize();
    await before.search("book", BOOK);
    await before.close();
    const after = new StdioServer(root, cacheDir);
    try {
      await after.initialize();
      const value = await after.search("book", BOOK);
      return {
        name: "pdf: first search after a restart, 352-page book (disk cache)",
        value,
        unit: "ms",
        target: "≤ 100 ms",
        pass: value <= 100,
        command,
        notes: "wall; SCIENCE_MCP_CACHE_DIR holds the text and its index: no extraction",
      };
    } finally {
      await after.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
}
