/**
 * One extraction job (jobs.ts): when PDFium's reading is handed to pdf.js for a second opinion, and when it is not.
 * pdf.js is a recording stand-in here; the real engines' agreement is extractor_test.ts's.
 */
import assert from "node:assert/strict";
import { answer, type ReadPdfjs } from "../../../src/sources/pdf/jobs.ts";
import type { EngineResult, PageJob } from "../../../src/sources/pdf/worker_protocol.ts";
import { tinyPdf } from "./tiny_pdf.ts";

const scan = await Deno.readFile(new URL("../../../fixtures/pdf/pdfjs__scan-bad.pdf", import.meta.url));

/** A pdf.js stand-in that counts its calls and reads nothing better. */
function recordingPdfjs(): { read: ReadPdfjs; calls: PageJob[] } {
  const calls: PageJob[] = [];
  const read: ReadPdfjs = (job) => {
    calls.push(job);
    const result: EngineResult = { kind: "done", pageCount: 1, first: 1, pages: [""], unreadable: [] };
    return Promise.resolve(result);
  };
  return { read, calls };
}

Deno.test("a scan (a few characters, and images) is read once, by PDFium: pdf.js is not asked again", async () => {
  const pdfjs = recordingPdfjs();
  const reply = await answer({ id: 1, op: "extract", bytes: scan, maxPages: 10, images: true }, () => {}, pdfjs.read);
  assert.equal(pdfjs.calls.length, 0);
  assert.equal(reply.kind, "done");
  assert.equal(reply.kind === "done" && reply.engine, "pdfium");
});

Deno.test("the same thin text in a file without images still gets pdf.js's second opinion", async () => {
  const pdfjs = recordingPdfjs();
  await answer({ id: 1, op: "extract", bytes: scan, maxPages: 10, images: false }, () => {}, pdfjs.read);
  assert.equal(pdfjs.calls.length, 1);
});

Deno.test("a text PDFium reads well is never read twice", async () => {
  const pdfjs = recordingPdfjs();
  const bytes = tinyPdf("The quick brown fox jumps over the lazy dog, twice over. ".repeat(4));
  const reply = await answer({ id: 1, op: "extract", bytes, maxPages: 10 }, () => {}, pdfjs.read);
  assert.equal(pdfjs.calls.length, 0);
  assert.match(reply.kind === "done" ? reply.pages[0] : "", /quick brown fox/);
});
