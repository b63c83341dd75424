/**
 * Hostile PDFs through search_pdf (quick variant of bench/hostile_pdf_bench.ts, on the copies in
 * fixtures/pdf): each gives its specific error — or opens, when it only looks hostile — with the process's
 * peak memory bounded. How long each takes is measured by the bench, not judged here.
 */
import assert from "node:assert/strict";
import { HOSTILE_PDFS, locate, meetsExpectation, searchHostilePdf } from "../../scripts/hostile_pdfs.ts";

const FIXTURES = [new URL("../../fixtures/pdf", import.meta.url).pathname];
/** Generous: a loaded machine must not turn "opens" into a timeout; durations are the bench's job. */
const TIMEOUT_MS = 600_000;
/** No call deadline: on a loaded machine a real PDF may take longer than the default 60 s. */
const NO_DEADLINE = { TOOL_CALL_TIMEOUT_MS: "0" };
const MIB = 1024 * 1024;

Deno.test({
  name: "hostile PDFs: specific error or result, memory bounded",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    let tried = 0;
    for (const pdf of HOSTILE_PDFS) {
      const path = await locate(pdf.file, FIXTURES);
      if (!path) continue;
      tried++;
      await t.step(`${pdf.kind}: ${pdf.file}`, async () => {
        const outcome = await searchHostilePdf(path, { env: { ...NO_DEADLINE, PDF_TIMEOUT_MS: String(TIMEOUT_MS) } });
        assert.ok(meetsExpectation(pdf, outcome), `${pdf.file}: ${outcome.outcome} (expected ${pdf.expect})`);
        assert.ok(outcome.peakRssDelta < 512 * MIB, `peak RSS +${(outcome.peakRssDelta / MIB).toFixed(0)} MiB`);
      });
    }
    assert.ok(tried >= 5, `only ${tried} hostile PDFs found in fixtures/pdf`);
  },
});

Deno.test({
  name: "hostile PDFs: over PDF_MAX_PAGES and over PDF_TIMEOUT_MS give their specific errors",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const long = await locate("pdfjs__freeculture.pdf", FIXTURES);
    if (!long) return;
    const pages = await searchHostilePdf(long, { env: { ...NO_DEADLINE, PDF_MAX_PAGES: "100" } });
    assert.match(pages.error ?? "", /352 pages, over the limit of 100 pages \(PDF_MAX_PAGES\)/);
    const slow = await searchHostilePdf(long, { env: { ...NO_DEADLINE, PDF_TIMEOUT_MS: "200" } });
    assert.match(slow.error ?? "", /PDF_TIMEOUT_MS/);
  },
});
