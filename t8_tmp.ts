const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
(globalThis as any).pdfjsWorker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
const cpu = () => { const u = Deno.resourceUsage?.(); return 0; };
async function run(f: string) {
  const data = Deno.readFileSync(`/work/shared/corpus/pdf/${f}.pdf`);
  const t0 = performance.now();
  const doc = await pdfjs.getDocument({ data, disableFontFace: true, useSystemFonts: false, useWorkerFetch: false, useWasm: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false, enableXfa: false, verbosity: 0 }).promise;
  const t1 = performance.now();
  const per: number[] = [];
  for (let i = 1; i <= doc.numPages; i++) { const s = performance.now(); const p = await doc.getPage(i); await p.getTextContent({ disableNormalization: true }); p.cleanup(); per.push(Math.round(performance.now() - s)); }
  console.log(f, "open", Math.round(t1 - t0), "pages", per.reduce((a, b) => a + b, 0), per.slice(0, 20).join(","));
  await doc.loadingTask?.destroy?.();
}
await run("scienceparse__superscripttest");
await run("scienceparse__superscripttest");
await run("scienceparse__superscripttest");
