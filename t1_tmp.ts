import { createPdfExtractor } from "./src/sources/pdf/extractor.ts";
const ex = createPdfExtractor({ root: ".", maxPages: 2000, maxBytes: 1e9, timeoutMs: 60000 }, { poolSize: 2 });
let t = performance.now();
ex.warm();
await new Promise((r) => setTimeout(r, 3000));
for (const f of ["scienceparse__superscripttest", "pdfjs__TAMReview", "pdfjs__freeculture", "scienceparse__superscripttest", "pdfjs__TAMReview", "pdfjs__freeculture"]) {
  const b = Deno.readFileSync(`/work/shared/corpus/pdf/${f}.pdf`);
  t = performance.now();
  const r = await ex.extract(b);
  console.log(f, r.pageCount, r.pages.length, Math.round(performance.now() - t), "ms", ex.pool.pids);
}
const b = Deno.readFileSync(`fixtures/pdf/pdfjs__Pages-tree-refs.pdf`);
console.log(await ex.extract(b), await ex.probe(Deno.readFileSync(`fixtures/pdf/pdfjs__Pages-tree-refs.pdf`)));
await ex.close();
for (const f of ["scienceparse__superscripttest", "pdfjs__freeculture"]) {
  const t = performance.now();
  await new Deno.Command("sh", { args: ["-c", `pdftotext /work/shared/corpus/pdf/${f}.pdf - | grep -c the`], stdout: "null" }).output();
  console.log("pdftotext", f, Math.round(performance.now() - t));
}
