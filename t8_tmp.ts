import process from "node:process";
const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
(globalThis as any).pdfjsWorker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
async function run(f: string) {
  const data = Deno.readFileSync(`/work/shared/corpus/pdf/${f}.pdf`);
  let c = cpu();
  const task = pdfjs.getDocument({ data, disableFontFace: true, useSystemFonts: false, useWorkerFetch: false, useWasm: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false, enableXfa: false, verbosity: 0 });
  const doc = await task.promise;
  const open = cpu() - c;
  c = cpu();
  for (let i = 1; i <= doc.numPages; i++) { const p = await doc.getPage(i); await p.getTextContent({ disableNormalization: true }); }
  const first = cpu() - c;
  c = cpu();
  for (let i = 1; i <= doc.numPages; i++) { const p = await doc.getPage(i); await p.getTextContent({ disableNormalization: true }); }
  const second = cpu() - c;
  console.log(f, "open", open.toFixed(0), "pass1", first.toFixed(0), "pass2 (fonts cached)", second.toFixed(0));
  await task.destroy();
}
for (let i = 0; i < 3; i++) await run("scienceparse__superscripttest");
await run("pdfjs__freeculture");
await run("pdfjs__freeculture");
