import { createPdfExtractor } from "./src/sources/pdf/extractor.ts";
import { documentText, indexDocument } from "./src/sources/pdf/search.ts";
import { buildIndex } from "./src/sources/pdf/normalize.ts";
const ex = createPdfExtractor({ root: ".", maxPages: 2000, maxBytes: 1e9, timeoutMs: 120000 }, { poolSize: 2 });
ex.warm(Deno.readFileSync("files/dvt_prophylaxis_review.pdf"));
await new Promise((r) => setTimeout(r, 5000));
for (let i = 0; i < 2; i++) {
  const b = Deno.readFileSync(`/work/shared/corpus/pdf/pdfjs__freeculture.pdf`);
  let t = performance.now();
  const text = await ex.extract(b);
  const t1 = performance.now();
  const idx = await ex.index(documentText(text));
  const t2 = performance.now();
  const local = buildIndex(documentText(text));
  const t3 = performance.now();
  indexDocument(text, idx);
  console.log("extract", Math.round(t1 - t), "index via child", Math.round(t2 - t1), "index local", Math.round(t3 - t2), "chars", local.text.length);
}
await ex.close();
