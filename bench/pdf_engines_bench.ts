/**
 * Text engines side by side, for the choice of the extractor's engine: PDFium compiled to WebAssembly
 * (`@embedpdf/pdfium`, MIT; the engine since #24.3, as pdfium_engine.ts runs it) and pdf.js (its
 * fallback), each warm in this process (one untimed run per file first), against `pdftotext` on the
 * same PDFs of fixtures/pdf and files/: CPU time (this process's, read from /proc; pdftotext's from bash
 * `times`) and word overlap with pdftotext's text (NFKC, lower case, line-end hyphens joined; the share
 * of pdftotext's words each engine also gives). Informative rows: the README says what was decided from
 * them. Linux only (CPU from /proc).
 */
import { join } from "node:path";
import { openPdfium } from "../src/sources/pdf/pdfium_engine.ts";
import { readWithPdfjs } from "../src/sources/pdf/pdfjs_engine.ts";
import { ensurePdftotext, machineLoad, REPO } from "./pdf_server.ts";
import { wordRecall } from "./pdf_set.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

type Engine = (bytes: Uint8Array) => Promise<string>;

/** CPU time of this process so far, in ms. */
function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** PDFium as the extractor runs it (src/sources/pdf/pdfium_engine.ts: the same wasm, the same text clean-up). */
function pdfium(): Engine {
  return async (bytes) => {
    const doc = await openPdfium(bytes);
    try {
      const pages: string[] = [];
      for (let n = 1; n <= doc.pageCount; n++) {
        try {
          pages.push(doc.pageText(n));
        } catch {
          pages.push("");
        }
      }
      return pages.join("\f");
    } finally {
      doc.close();
    }
  };
}

/** pdf.js as the extractor runs it when PDFium cannot (src/sources/pdf/pdfjs_engine.ts). */
function pdfjs(): Engine {
  return async (bytes) => {
    const result = await readWithPdfjs(
      { id: 0, op: "extract", bytes: bytes.slice(), maxPages: 100_000 },
      () => {},
      1e9,
    );
    return result.kind === "done" ? result.pages.join("\f") : "";
  };
}

/** pdftotext's text of `file` and its CPU time in ms (bash `times`: children's user + system). */
async function pdftotext(file: string): Promise<{ text: string; cpuMs: number }> {
  const out = await new Deno.Command("bash", {
    args: ["-c", 'pdftotext -q "$0" - ; echo -n "@@TIMES@@"; times', file],
    stdout: "piped",
    stderr: "null",
  }).output();
  const [text, times] = new TextDecoder().decode(out.stdout).split("@@TIMES@@");
  const children = times.trim().split("\n")[1].split(/\s+/).map((t) => {
    const [, min, sec] = /(\d+)m([\d.]+)s/.exec(t)!;
    return (Number(min) * 60 + Number(sec)) * 1000;
  });
  return { text, cpuMs: children[0] + children[1] };
}

interface Tally {
  cpuMs: number;
  overlap: number[];
  failed: string[];
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} pdf_engines`;
  if (Deno.build.os !== "linux" || !(await ensurePdftotext())) {
    return [{ name: "pdf engines", value: NaN, unit: "", command, notes: "skipped: needs Linux and pdftotext" }];
  }
  const folders = [join(REPO, "fixtures/pdf"), join(REPO, "files")];
  const files = folders.flatMap((dir) =>
    [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".pdf")).map((e) => join(dir, e.name))
  ).sort();
  const engines: [string, Engine][] = [["pdf.js 6.5.438", pdfjs()], ["PDFium (WASM) 2.15.1", pdfium()]];
  const groups = {
    papers: (f: string) => !f.endsWith("freeculture.pdf"),
    book: (f: string) => f.endsWith("freeculture.pdf"),
  };
  const rows: BenchRow[] = [];
  for (const [group, member] of Object.entries(groups)) {
    let reference = 0;
    const tallies = new Map(engines.map(([name]) => [name, { cpuMs: 0, overlap: [], failed: [] } as Tally]));
    const chosen = files.filter(member);
    for (const file of chosen) {
      const bytes = await Deno.readFile(file);
      const ref = await pdftotext(file);
      reference += ref.cpuMs;
      for (const [name, engine] of engines) {
        const tally = tallies.get(name)!;
        await engine(bytes).catch(() => ""); // warm: V8 optimises the engine's code for this kind of file
        const before = cpuMs();
        try {
          const text = await engine(bytes);
          tally.cpuMs += cpuMs() - before;
          if (ref.text.trim()) tally.overlap.push(wordRecall(text, ref.text));
        } catch {
          tally.cpuMs += cpuMs() - before;
          tally.failed.push(file.split("/").pop()!);
        }
      }
    }
    for (const [name, tally] of tallies) {
      const mean = tally.overlap.reduce((a, b) => a + b, 0) / Math.max(1, tally.overlap.length);
      rows.push({
        name: `pdf engines: ${name}, CPU ÷ pdftotext, ${group} (${chosen.length} files)`,
        value: tally.cpuMs / reference,
        unit: "×",
        command,
        notes: `informative: ${tally.cpuMs.toFixed(0)} ms vs pdftotext ${reference.toFixed(0)} ms, warm, in process; ` +
          `word overlap with pdftotext ${mean.toFixed(3)} (mean of ${tally.overlap.length}); ` +
          `cannot open: ${tally.failed.join(", ") || "none"}; ${machineLoad()}`,
      });
    }
  }
  return rows;
}
