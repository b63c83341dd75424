/**
 * What a PDF search leaves behind, and memory at scale (#36), on a real server over stdio (bench/pdf_server.ts;
 * fresh PDF_ROOT per server, no disk cache):
 *
 * 6. after one search_pdf, nothing asked: the server tree's CPU (server and extractors, reaped ones included) from
 *    1 s to 61 s after the answer (target ≤ 10 ms), and at 62 s after the answer the number of processes (target 1:
 *    PDF_EXTRACTOR_IDLE_MS, default 60 s, gives an idle extractor back) and the tree RSS against the same server's
 *    idle RSS before its first PDF call (target within 10 MiB). Five servers, one per bench paper, each measured
 *    alone in its window: they are started one after another (each one's search runs when the previous one is
 *    already waiting), so their 60 s waits overlap and the row takes ~90 s, not 5 × 65 s; a waiting server does
 *    next to nothing, so the overlap does not change what is counted (CPU per process tree, not wall).
 * 7b. search_pdfs over a folder of 40 PDFs (4 copies each of 10 PDFs of fixtures/pdf, made distinct files):
 *    peak tree RSS (VmRSS of server + extractors summed, sampled every 20 ms): ≤ 250 MiB; with its CPU beside a
 *    pdftotext | grep loop over the same files (informative).
 */
import { join } from "node:path";
import { ensurePdftotext, machineLoad, peakTreeRss, REPO, StdioServer, treeCpuMs } from "./pdf_server.ts";
import { type BenchDoc, freshFolder, locate, PAPERS, pdfName, pdftotextGrep, TEN } from "./pdf_set.ts";
import { median } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const MIB = 1024 * 1024;
/** When the state is read, after the answer: the idle timer (60 s) plus 2 s for the kill and the reaping. */
const CHECK_AT_MS = 62_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Aftermath {
  paper: string;
  /** Tree CPU from the answer to +1 s (the search's tail), and from +1 s to +61 s. */
  tailMs: number;
  idleCpuMs: number;
  /** Of idleCpuMs: from +1 s to +59 s (before the idle extractor is given back), and from +59 s to +61 s. */
  beforeGiveBackMs: number;
  giveBackMs: number;
  processesAtCheck: number;
  rssDelta: number;
  idleRss: number;
  /** Seconds after the answer when the tree was first back to one process and within 10 MiB (sampled each 0.5 s). */
  backAfterS: number;
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} pdf_idle`;
  const papers: (BenchDoc & { path: string })[] = [];
  for (const paper of PAPERS) {
    const path = await locate(paper.file);
    if (path) papers.push({ ...paper, path });
  }
  if (papers.length < PAPERS.length) {
    return [{ name: "pdf idle", value: NaN, unit: "", pass: false, command, notes: "bench set missing" }];
  }
  const rows = await afterOneSearch(options.quick ? papers.slice(0, 1) : papers, command);
  rows.push(await folderOf40(options.quick ? 1 : 5, command));
  return rows;
}

/** Row 6 (see the header). */
async function afterOneSearch(papers: (BenchDoc & { path: string })[], command: string): Promise<BenchRow[]> {
  const watching: Promise<Aftermath>[] = [];
  for (const paper of papers) {
    const answered = Promise.withResolvers<void>();
    watching.push(aftermath(paper, answered.resolve));
    // The next server starts once this one's search is answered and its tail second is over.
    await Promise.race([answered.promise, watching.at(-1)]);
    await sleep(1500);
  }
  const all = await Promise.all(watching);
  const cpu = median(all.map((a) => a.idleCpuMs));
  const processes = Math.max(...all.map((a) => a.processesAtCheck));
  const delta = median(all.map((a) => a.rssDelta)) / MIB;
  const detail = all.map((a) =>
    `${a.paper}: ${a.idleCpuMs} ms (${a.beforeGiveBackMs} to +59 s, ${a.giveBackMs} from +59 to +61 s; tail ${a.tailMs}), ${a.processesAtCheck} proc, ${
      (a.rssDelta / MIB).toFixed(1)
    } MiB over idle ${(a.idleRss / MIB).toFixed(0)}, back at ${
      Number.isFinite(a.backAfterS) ? `${a.backAfterS} s` : "never (70 s)"
    }`
  ).join("; ");
  const load = machineLoad();
  return [
    {
      name: "pdf: after one PDF search, nothing asked: server-tree CPU over the next 60 s",
      value: cpu,
      unit: "ms",
      target: "≤ 10 ms",
      pass: cpu <= 10,
      command,
      notes: `median of ${all.length} servers, CPU from +1 s to +61 s after the answer (the first second, the ` +
        `search's own tail, apart; the extractor is given back at +60 s); median to +59 s ${
          median(all.map((a) => a.beforeGiveBackMs))
        } ms, +59 to +61 s ${median(all.map((a) => a.giveBackMs))} ms; ${detail}; ${load}`,
    },
    {
      name: "pdf: after one PDF search, processes 62 s after the answer",
      value: processes,
      unit: "processes",
      target: "= 1",
      pass: processes === 1,
      command,
      notes: `most of ${all.length} servers; PDF_EXTRACTOR_IDLE_MS default (60 s)`,
    },
    {
      name: "pdf: after one PDF search, tree RSS 62 s after the answer − idle RSS before the first PDF call",
      value: delta,
      unit: "MiB",
      target: "≤ 10 MiB",
      pass: delta <= 10,
      command,
      notes: `median of ${all.length}; idle RSS: the same server after initialize + tools/list, before any PDF call ` +
        `(${median(all.map((a) => a.idleRss / MIB)).toFixed(0)} MiB)`,
    },
  ];
}

async function aftermath(paper: BenchDoc & { path: string }, answered: () => void): Promise<Aftermath> {
  const root = await freshFolder([paper.path]);
  const server = new StdioServer(root);
  try {
    await server.initialize();
    await server.request("tools/list");
    await server.settledCpuMs();
    if (await server.processes() !== 1) {
      throw new Error("a fresh server runs more than one process before any PDF call");
    }
    const idleRss = await server.treeRssBytes();
    await server.search(pdfName(paper.path), paper);
    const at = performance.now();
    answered();
    const cpuAtAnswer = await treeCpuMs(server.pid);
    await sleep(1000);
    const cpuFrom = await treeCpuMs(server.pid);
    let backAfterS = Infinity;
    let cpuTo = NaN;
    let cpuAt59 = NaN;
    let processesAtCheck = NaN;
    let rssAtCheck = NaN;
    for (let t = 50_000; t <= 70_000; t += 500) {
      await sleep(Math.max(0, at + t - performance.now()));
      if (t === 59_000) cpuAt59 = await treeCpuMs(server.pid);
      if (t === 61_000) cpuTo = await treeCpuMs(server.pid);
      const processes = await server.processes();
      const rss = await server.treeRssBytes();
      if (t === CHECK_AT_MS) [processesAtCheck, rssAtCheck] = [processes, rss];
      if (processes === 1 && rss - idleRss <= 10 * MIB && !Number.isFinite(backAfterS)) backAfterS = t / 1000;
      if (t >= CHECK_AT_MS && Number.isFinite(backAfterS)) break;
    }
    return {
      paper: pdfName(paper.path),
      tailMs: cpuFrom - cpuAtAnswer,
      idleCpuMs: cpuTo - cpuFrom,
      beforeGiveBackMs: cpuAt59 - cpuFrom,
      giveBackMs: cpuTo - cpuAt59,
      processesAtCheck,
      rssDelta: rssAtCheck - idleRss,
      idleRss,
      backAfterS,
    };
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** Row 7b (see the header). */
async function folderOf40(rounds: number, command: string): Promise<BenchRow> {
  const paths = TEN.map((f) => join(REPO, "fixtures/pdf", f));
  const root = await freshFolder(paths, 4);
  const files = [...Deno.readDirSync(root)].map((e) => join(root, e.name)).sort();
  const peaks: number[] = [];
  const ours: number[] = [];
  const ref: number[] = [];
  const reference = await ensurePdftotext();
  try {
    for (let i = 0; i < rounds; i++) {
      if (reference) ref.push((await pdftotextGrep(files, "the")).cpuMs);
      // A fresh server each round, on the same folder: the PDFs are new to it.
      const server = new StdioServer(root);
      try {
        await server.initialize();
        await server.request("tools/list");
        const before = await server.settledCpuMs();
        const { result, peak } = await peakTreeRss(
          server.pid,
          server.call("search_pdfs", { query: "the", per_file: 1 }),
        );
        if (result.files_searched !== files.length || !((result.total_matches as number) > 0)) {
          throw new Error(`search_pdfs answered ${JSON.stringify(result).slice(0, 300)}`);
        }
        ours.push((await server.settledCpuMs()) - before);
        peaks.push(peak);
      } finally {
        await server.close();
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const value = median(peaks) / MIB;
  const cpu = reference
    ? `; CPU ${median(ours)} ms vs pdftotext | grep ${median(ref).toFixed(0)} ms (${
      (median(ours) / median(ref)).toFixed(2)
    }×, informative)`
    : "";
  return {
    name: "pdf: tree RSS, peak while search_pdfs reads a folder of 40 new PDFs",
    value,
    unit: "MiB",
    target: "≤ 250 MiB",
    pass: value <= 250,
    command,
    notes: `median of ${rounds} fresh servers (${peaks.map((p) => (p / MIB).toFixed(0)).join(", ")} MiB); server + ` +
      `extractor VmRSS summed every 20 ms; 4 copies each of 10 PDFs of fixtures/pdf${cpu}; ${machineLoad()}`,
  };
}
