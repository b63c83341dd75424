/**
 * Hostile PDFs: every corrupt, circular, encrypted, password-protected, zero-byte, text-less and very long
 * PDF of the corpus (../shared/corpus/pdf, else the copies in fixtures/pdf) searched once through
 * search_pdf in a fresh runtime: outcome, time and the server process's peak RSS.
 * The full run also searches every other corpus PDF and counts tool errors (there must be none: an
 * unreadable PDF is a result with an `error`). Defaults as in production: PDF_TIMEOUT_MS 60 s.
 * Extraction runs in extractor processes, whose memory is theirs: the peak RSS is the server's. Last, a
 * decompression bomb built at run time, and what is left of it 10 s after its answer, in a process of its own
 * (bench/pdf_bomb_probe.ts), so its RSS is not what the searches before it left behind.
 */
import { join } from "node:path";
import {
  type BombAftermath,
  CORPUS_DIRS,
  firstExisting,
  HOSTILE_PDFS,
  locate,
  meetsExpectation,
  type PdfOutcome,
  pdfsIn,
  searchHostilePdf,
} from "../scripts/hostile_pdfs.ts";
import type { BenchOptions, BenchRow } from "./types.ts";
import { REPO } from "./pdf_server.ts";

const MIB = 1024 * 1024;
const BUDGET_MS = 60_000;
const PEAK_DELTA_LIMIT = 512 * MIB;
const COMMAND = "deno task bench hostile_pdf";

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const outcomes: PdfOutcome[] = [];
  for (const pdf of HOSTILE_PDFS) {
    const path = await locate(pdf.file);
    if (!path) {
      rows.push({
        name: `hostile PDF: ${pdf.kind}`,
        value: NaN,
        unit: "ms",
        notes: `${pdf.file} not found`,
        command: COMMAND,
      });
      continue;
    }
    const o = await searchHostilePdf(path);
    outcomes.push(o);
    const expected = pdf.expect === "opens" ? "opens" : "its specific error";
    rows.push({
      name: `hostile PDF: ${pdf.kind} (${pdf.file})`,
      value: Math.round(o.ms),
      unit: "ms",
      target: `${expected}, ≤ ${BUDGET_MS / 1000} s, peak RSS +≤ 512 MiB`,
      pass: meetsExpectation(pdf, o) && o.ms <= BUDGET_MS && o.peakRssDelta <= PEAK_DELTA_LIMIT,
      command: COMMAND,
      notes: `${o.outcome.slice(0, 90)}; peak RSS ${(o.peakRss / MIB).toFixed(0)} MiB (+${
        (o.peakRssDelta / MIB).toFixed(0)
      })`,
    });
  }
  if (!options.quick) {
    const dir = await firstExisting(CORPUS_DIRS);
    const hostile = new Set(HOSTILE_PDFS.map((p) => p.file));
    for (const file of (await pdfsIn(dir)).filter((f) => !hostile.has(f))) {
      outcomes.push(await searchHostilePdf(join(dir, file)));
    }
    const toolErrors = outcomes.filter((o) => o.toolError);
    rows.push({
      name: `corpus PDFs searched (${outcomes.length}): tool errors`,
      value: toolErrors.length,
      unit: "",
      target: "= 0 (failures are results with an error)",
      pass: toolErrors.length === 0,
      command: COMMAND,
      notes: toolErrors.map((o) => `${o.file}: ${o.outcome}`).join("; ").slice(0, 200),
    });
  }
  const slowest = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a), outcomes[0]);
  const biggest = outcomes.reduce((a, b) => (b.peakRss > a.peakRss ? b : a), outcomes[0]);
  if (slowest) {
    rows.push({
      name: `PDFs searched (${outcomes.length}): slowest first search`,
      value: Math.round(slowest.ms),
      unit: "ms",
      target: `≤ ${BUDGET_MS / 1000} s (PDF_TIMEOUT_MS)`,
      pass: slowest.ms <= BUDGET_MS,
      command: COMMAND,
      notes: slowest.file,
    });
    rows.push({
      name: `PDFs searched (${outcomes.length}): peak process RSS`,
      value: Math.round(biggest.peakRss / MIB),
      unit: "MiB",
      target: "≤ 1024 MiB",
      pass: biggest.peakRss <= 1024 * MIB,
      command: COMMAND,
      notes: `${biggest.file} (+${(biggest.peakRssDelta / MIB).toFixed(0)} MiB during its search)`,
    });
  }
  const bomb = await bombInItsOwnProcess();
  rows.push({
    name: "hostile PDF: decompression bomb (4 MB → 4 GiB), server RSS 10 s after the answer",
    value: Math.round(bomb.rssAfter / MIB),
    unit: "MiB",
    target: "< 700 MiB, extractor gone, no CPU",
    pass: bomb.rssAfter < 700 * MIB && bomb.survivors === 0 && bomb.serverCpuMs < 50 &&
      /memory|PDF_TIMEOUT_MS/.test(bomb.error),
    command: COMMAND,
    notes:
      `answered in ${(bomb.ms / 1000).toFixed(1)} s: ${bomb.error.slice(0, 70)}; extractors left: ${bomb.survivors}; ` +
      `server CPU ${bomb.serverCpuMs.toFixed(0)} ms in 1 s; repeat ${bomb.repeatMs.toFixed(0)} ms`,
  });
  return rows;
}

/** bench/pdf_bomb_probe.ts's answer: the bomb searched by a fresh server in a process of its own. */
async function bombInItsOwnProcess(): Promise<BombAftermath> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/pdf_bomb_probe.ts"],
    cwd: REPO,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`bench/pdf_bomb_probe.ts failed (status ${out.code})`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}
