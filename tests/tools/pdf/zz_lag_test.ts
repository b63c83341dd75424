import { createPdfExtractor } from "../../../src/sources/pdf/extractor.ts";
Deno.test("lag", async () => {
  for (const pool of [2, 1, 2, 1]) {
    const ex = createPdfExtractor({ root: ".", maxPages: 2000, maxBytes: 1e9, timeoutMs: 60000 }, { poolSize: pool });
    await ex.countPages(Deno.readFileSync("fixtures/pdf/pdfjs__issue12823.pdf")); // worker started
    let last = performance.now(); const lags: number[] = [];
    const timer = setInterval(() => { const now = performance.now(); const lag = now - last - 2; if (lag > 10) lags.push(Math.round(lag)); last = now; }, 2);
    const t0 = performance.now();
    const text = await ex.extract(Deno.readFileSync("fixtures/pdf/pdfjs__freeculture.pdf"));
    const t1 = performance.now();
    await ex.index(text.pages.join("\f"));
    console.log("pool", pool, "extract", Math.round(t1 - t0), "index", Math.round(performance.now() - t1), "lags>10ms:", lags.join(","));
    clearInterval(timer);
    await ex.close();
  }
});
