import { createPdfExtractor } from "./src/sources/pdf/extractor.ts";
const mode = Deno.args[0];
const ex = createPdfExtractor({ root: ".", maxPages: 2000, maxBytes: 1e9, timeoutMs: 120000 }, { poolSize: 2 });
ex.warm();
await new Promise((r) => setTimeout(r, 3000));
if (mode === "real") { await ex.extract(Deno.readFileSync("files/dvt_prophylaxis_review.pdf")); }
const f = Deno.args[1];
for (let i = 0; i < 2; i++) {
  const b = Deno.readFileSync(`/work/shared/corpus/pdf/${f}.pdf`);
  const t = performance.now();
  await ex.extract(b);
  const t2 = performance.now();
  await new Deno.Command("sh", { args: ["-c", `pdftotext /work/shared/corpus/pdf/${f}.pdf - | grep -c the`], stdout: "null" }).output();
  console.log(mode, f, Math.round(t2 - t), "ms; pdftotext", Math.round(performance.now() - t2));
}
await ex.close();
