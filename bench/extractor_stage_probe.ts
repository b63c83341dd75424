/**
 * One extractor's work, stage by stage, in a process of its own (#36): started by extractor_stages.ts with the
 * extractor process's flags, it runs what extract_child.ts and pdf_worker.ts run for one document, twice (first
 * and warm), and prints the process's CPU (all threads, wasm compilation included) spent in each
 * stage (getrusage, every thread) as one JSON line. The relay between server, process and worker is not in it: extractor_stages.ts
 * measures the whole process beside it.
 *
 * Usage: `deno run -A --unstable-raw-imports --v8-flags=--single-threaded bench/extractor_stage_probe.ts FILE.pdf`
 */
import process from "node:process";

/** CPU of this process so far (user + system, every thread: getrusage), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Waits until background threads (wasm tier-up, GC) stop adding CPU; returns the CPU then. */
async function settled(): Promise<number> {
  let last = cpuMs();
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpuMs();
    if (now === last) return now;
    last = now;
  }
  return last;
}

const stages: Record<string, number> = {};
let mark = cpuMs();
stages["process start (Deno, this module)"] = mark;
export {};
function stage(name: string): void {
  const now = cpuMs();
  stages[name] = (stages[name] ?? 0) + now - mark;
  mark = now;
}

const bytes = await Deno.readFile(Deno.args[0]);
const { openPdfium, pdfiumWasm } = await import("../src/sources/pdf/pdfium_engine.ts");
const { buildIndex } = await import("../src/sources/pdf/normalize.ts");
const { doubtful, scoreText } = await import("../src/sources/pdf/text_quality.ts");
const { encodeReply } = await import("../src/sources/pdf/worker_protocol.ts");
const { indexDocument, searchDocument } = await import("../src/sources/pdf/search.ts");
await settled();
stage("module load (worker + engine)");
await pdfiumWasm();
stage("PDFium wasm bytes");

async function read(label: string): Promise<void> {
  const doc = await openPdfium(bytes);
  stage(`${label}: open (first: wasm compile + instantiate)`);
  const pages: string[] = [];
  for (let n = 1; n <= doc.pageCount; n++) pages.push(doc.pageText(n));
  doc.close();
  stage(`${label}: pages (PDFium text calls, tidy)`);
  await settled();
  stage(`${label}: background tier-up after the pages`);
  doubtful(scoreText(pages), pages.length);
  const text = pages.join("\f");
  stage(`${label}: text assembly + quality check`);
  const index = buildIndex(text);
  stage(`${label}: indexing`);
  encodeReply({ id: 1, kind: "done", pageCount: pages.length, first: 1, pages, unreadable: [], index });
  stage(`${label}: reply frame`);
  const found = searchDocument(indexDocument({ pageCount: pages.length, pages }, index), "the results", {
    contextLength: 300,
  });
  if (found.total < 0) throw new Error("unreachable");
  stage(`${label}: search (server side)`);
  await settled();
  stage(`${label}: settle`);
}

await read("first");
await read("warm");
console.log(JSON.stringify(Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(v)]))));
