/**
 * Where an extractor process's CPU goes, stage by stage (#36): the process alone (Deno, the relay thread and the
 * extraction worker, no PDF), the first document (module and PDFium loading, wasm compilation, the pages), and the
 * same document again (the warm cost). CPU of the extractor process from /proc, median of interleaved runs.
 *
 * Usage: `deno run -A bench/extractor_stages.ts [FILE.pdf ...]`
 */
import { createPdfExtractor } from "../src/sources/pdf/extractor.ts";

const LIMITS = { root: "./files", maxPages: 2000, maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000 };
const TICK_MS = 1000 / 100; // USER_HZ

/** CPU (user + system) of a process and its threads so far, in ms. */
export function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
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

async function stages(file: string): Promise<{ start: number; first: number; warm: number }> {
  const bytes = await Deno.readFile(file);
  const extractor = createPdfExtractor(LIMITS, { poolSize: 1 });
  try {
    // An empty job starts the process and the worker, and answers without any engine.
    await extractor.extract(new Uint8Array(0)).catch(() => {});
    const [pid] = extractor.pool.pids;
    const start = await settle(pid);
    await extractor.extract(bytes.slice());
    const afterFirst = await settle(pid);
    await extractor.extract(bytes.slice());
    const afterWarm = await settle(pid);
    return { start, first: afterFirst - start, warm: afterWarm - afterFirst };
  } finally {
    await extractor.close();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

if (import.meta.main) {
  const files = Deno.args.length ? Deno.args : ["fixtures/pdf/scienceparse__superscripttest.pdf"];
  for (const file of files) {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await stages(file));
    const pt = [];
    for (let i = 0; i < 5; i++) {
      const t = await new Deno.Command("bash", {
        args: ["-c", `TIMEFORMAT='%U %S'; { time pdftotext "${file}" - >/dev/null; } 2>&1`],
        stdout: "piped",
      }).output();
      const [u, s] = new TextDecoder().decode(t.stdout).trim().split(" ").map(Number);
      pt.push((u + s) * 1000);
    }
    console.log(
      `${file}: process ${median(runs.map((r) => r.start))} ms, first doc ${
        median(runs.map((r) => r.first))
      } ms, warm doc ${median(runs.map((r) => r.warm))} ms, pdftotext ${median(pt)} ms`,
    );
  }
}
