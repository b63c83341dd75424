/**
 * Where an extractor process's CPU goes (#36), CPU from /proc, medians of interleaved runs:
 *
 * - per document: the process alone (Deno, the relay thread and the extraction worker, no PDF), the first
 *   document (module and PDFium loading, wasm compilation and tier-up, the pages), and the same document again
 *   (the warm cost), in a full slot and, for a small document, in a light slot (Liftoff only; worker_pool.ts);
 *   beside pdftotext;
 * - a run of documents read one after another, as search_pdfs reads a folder: every extractor process's CPU
 *   (reaped children of this process), light slots on and off.
 *
 * The stage inside the process (module load, wasm, pages, text, index, reply) is extractor_stage_probe.ts.
 *
 * Usage: `deno run -A bench/extractor_stages.ts [FILE.pdf ...]`
 */
import { createPdfExtractor, lightDocument } from "../src/sources/pdf/extractor.ts";

const LIMITS = { root: "./files", maxPages: 2000, maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000 };
const TICK_MS = 1000 / 100; // USER_HZ

/** CPU (user + system) of a process so far; with `children`, that of its reaped children instead. In ms. */
export function cpuMs(pid: number | "self", children = false): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const at = children ? 13 : 11;
  return (Number(fields[at]) + Number(fields[at + 1])) * TICK_MS;
}

async function settle(pid: number): Promise<number> {
  // CPU settles when nothing runs any more (background wasm tier-up, GC): wait until it stops rising.
  let last = cpuMs(pid);
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpuMs(pid);
    if (now === last) return now;
    last = now;
  }
  return last;
}

interface Stages {
  start: number;
  first: number;
  warm: number;
}

async function stages(bytes: Uint8Array, lightSlots: boolean): Promise<Stages> {
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1, lightSlots });
  try {
    // An index job starts the process and the worker, and answers without any engine.
    await extractor.index("");
    const [pid] = extractor.pool.pids;
    const start = await settle(pid);
    await extractor.extract(bytes.slice());
    const afterFirst = await settle(pid);
    await extractor.extract(bytes.slice());
    const afterWarm = await settle(pid);
    if (extractor.pool.spawned !== 1) throw new Error(`${extractor.pool.spawned} extractors started, not 1`);
    return { start, first: afterFirst - start, warm: afterWarm - afterFirst };
  } finally {
    await extractor.close();
  }
}

/** CPU of every extractor process reading `docs` one after another (closed and reaped before reading it). */
export async function sequence(docs: Uint8Array[], lightSlots: boolean): Promise<number> {
  const before = cpuMs("self", true);
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1, lightSlots, idleMs: 600_000 });
  const pids = new Set<number>();
  for (const bytes of docs) {
    await extractor.extract(bytes.slice());
    for (const pid of extractor.pool.pids) pids.add(pid);
  }
  await extractor.close();
  // Killed children are reaped by Deno's status watcher; wait until every one is gone.
  for (let i = 0; i < 250 && [...pids].some(alive); i++) await new Promise((r) => setTimeout(r, 20));
  return cpuMs("self", true) - before;
}

/** Whether `pid` is still there, zombie included: its CPU joins this process's children's once it is reaped. */
function alive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

async function pdftotext(file: string): Promise<number> {
  const t = await new Deno.Command("bash", {
    args: ["-c", `TIMEFORMAT='%U %S'; { time pdftotext "${file}" - >/dev/null; } 2>&1`],
    stdout: "piped",
  }).output();
  const [u, s] = new TextDecoder().decode(t.stdout).trim().split(" ").map(Number);
  return (u + s) * 1000;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ")[0];

if (import.meta.main) {
  const sequences = Deno.args.includes("--sequences");
  const files = Deno.args.filter((a) => !a.startsWith("--"));
  if (!files.length) files.push("fixtures/pdf/scienceparse__superscripttest.pdf");
  const runs = 5;
  if (!sequences) {
    for (const file of files) {
      const bytes = await Deno.readFile(file);
      const kinds = lightDocument(bytes) ? [false, true] : [false];
      const got = new Map<boolean, Stages[]>(kinds.map((k) => [k, []]));
      const pt: number[] = [];
      for (let i = 0; i < runs; i++) {
        for (const light of kinds) got.get(light)!.push(await stages(bytes, light));
        pt.push(await pdftotext(file));
      }
      for (const [light, rows] of got) {
        console.log(
          `${file.split("/").pop()} [${light ? "light" : "full"} slot, load ${load()}]: process ${
            median(rows.map((r) => r.start))
          } ms, first doc ${median(rows.map((r) => r.first))} ms, warm doc ${
            median(rows.map((r) => r.warm))
          } ms, pdftotext ${median(pt)} ms`,
        );
      }
    }
  } else {
    const docs = await Promise.all(files.map((f) => Deno.readFile(f)));
    for (const n of [1, 5, 10]) {
      const run = Array.from({ length: n }, (_, i) => docs[i % docs.length]);
      const light: number[] = [];
      const full: number[] = [];
      const pt: number[] = [];
      for (let i = 0; i < runs; i++) {
        light.push(await sequence(run, true));
        full.push(await sequence(run, false));
        let sum = 0;
        for (let j = 0; j < n; j++) sum += await pdftotext(files[j % files.length]);
        pt.push(sum);
      }
      console.log(
        `${n} documents in a row (separate search_pdf calls) [load ${load()}]: light slots ${
          median(light)
        } ms, full slots only ${median(full)} ms (light ÷ full ${
          (median(light) / median(full)).toFixed(2)
        }), pdftotext ${Math.round(median(pt))} ms`,
      );
    }
  }
}
