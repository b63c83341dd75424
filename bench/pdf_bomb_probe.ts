/**
 * The decompression-bomb row of hostile_pdf_bench.ts, alone in its process: a fresh server searches a PDF
 * bomb built at run time; prints one JSON line (scripts/hostile_pdfs.ts, BombAftermath) whose RSS is this
 * process's own, not what earlier bench modules left behind (706 MiB in a full run, 148 MiB alone; #36).
 *
 * Usage: deno run -A bench/pdf_bomb_probe.ts
 */
import { bombAftermath } from "../scripts/hostile_pdfs.ts";

console.log(JSON.stringify(await bombAftermath()));
