const CSL = (await import("npm:citeproc@2.4.63")).default;
const style = (await import(`../src/sources/citations/styles/apa.ts`)).default;
const loc = (await import("../src/sources/citations/styles/locales_en_us.ts")).default;
const t = performance.now();
new CSL.Engine(
  { retrieveLocale: () => loc, retrieveItem: (id: string) => ({ id, type: "article-journal", title: "T" }) },
  style,
  "en-US",
  true,
);
console.log((performance.now() - t).toFixed(0));
