import { createPdfExtractor } from "./src/sources/pdf/extractor.ts";
const ticks = async (pid: number) => { const f = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" "); return Number(f[11]) + Number(f[12]); };
const ex = createPdfExtractor({ root: ".", maxPages: 2000, maxBytes: 1e9, timeoutMs: 120000 }, { poolSize: 2 });
ex.warm(Deno.readFileSync("files/dvt_prophylaxis_review.pdf"));
await new Promise((r) => setTimeout(r, 6000));
for (const f of ["scienceparse__superscripttest", "scienceparse__superscripttest", "pdfjs__freeculture", "pdfjs__freeculture"]) {
  const pids = ex.pool.pids;
  const before = await Promise.all(pids.map(ticks));
  const b = Deno.readFileSync(`/work/shared/corpus/pdf/${f}.pdf`);
  const t = performance.now();
  await ex.extract(b);
  const wall = performance.now() - t;
  const after = await Promise.all(pids.map(ticks));
  console.log(f, "wall", Math.round(wall), "cpu ms per child", after.map((a, i) => (a - before[i]) * 10));
}
await ex.close();
