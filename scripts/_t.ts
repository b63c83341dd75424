import { parsePmcArticles } from "../src/sources/pmc/parse_jats.ts";
const xml = Deno.readTextFileSync("fixtures/ncbi/pmc/" + Deno.args[0]);
const [a] = parsePmcArticles(xml, "u");
console.log(
  JSON.stringify(
    {
      ...a,
      sections: a.sections.map((s) => [s.heading, s.text.length, s.text.slice(0, 300)]),
      references: a.references.slice(0, 3),
      nrefs: a.references.length,
    },
    null,
    1,
  ),
);
