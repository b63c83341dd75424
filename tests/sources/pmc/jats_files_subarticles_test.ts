/**
 * Supplementary files, media and sub-articles on real JATS: eLife articles (source data in figure
 * captions, videos, decision letters, author responses with a table) and a PMC/Europe PMC article whose
 * supplementary data is a list of files.
 */
import assert from "node:assert/strict";
import { parsePmcArticles } from "../../../src/sources/pmc/parse_jats.ts";
import { jatsDoc } from "../../../src/tools/papers/content/pmc_content.ts";
import { fixture } from "../../helpers/runtime.ts";

const ELIFE_04490 = fixture("elife/elifetools__elife04490.xml");
const ELIFE_00666 = fixture("elife/elifetools__elife-00666.xml");
const PMC_3258128 = fixture("europepmc/pyeuropepmc__PMC3258128_fullTextXML.xml");

function fileLines(text: string): string[] {
  return text.split("\n").filter((l) => /^- .*\((file|files|video)[:)]/.test(l));
}

Deno.test("eLife source data inside figure captions: one line each with label, caption and file name", () => {
  const [a] = parsePmcArticles(ELIFE_04490, "u");
  const text = jatsDoc(a, "u").text;
  const lines = fileLines(text);
  assert.equal(lines.length, 9, "the article's nine source-data files");
  assert.ok(
    lines.every((l) => /^- Figure \d+—source data \d\. .+\(file: elife04490s00\d\.xlsx\)$/.test(l)),
    lines.join("\n"),
  );
  assert.match(
    lines[0],
    /^- Figure 1—source data 1\. Absolute values for JA and GLVs shown as fold-changes in Figure 1B .* n = 4\. Data are from a single glasshouse experiment\./,
  );
  assert.doesNotMatch(lines[0], /DOI:/, "eLife's DOI paragraph is left out");
  // The figure's own caption no longer carries the source data's caption glued in.
  const figure1 = text.split("\n").find((l) => l.startsWith("Figure 1. "))!;
  assert.doesNotMatch(figure1, /Absolute values for JA/);
});

Deno.test("eLife's sample article: every supplementary file and media item is listed, videos say so", () => {
  const [a] = parsePmcArticles(ELIFE_00666, "u");
  const lines = fileLines(jatsDoc(a, "u").text);
  // 9 <supplementary-material> and 5 <media> outside them.
  assert.equal(lines.length, 14, lines.join("\n"));
  assert.ok(lines.includes("- Video 1. A description of the eLife editorial process. (video: elife-00666-video1.mp4)"));
  assert.ok(
    lines.includes(
      "- Supplementary file 1. This is the title of the supplementary file 1. A file containing underlying data. " +
        "(file: elife-00666-supp1.csv)",
    ),
  );
  assert.ok(lines.some((l) => l.startsWith("- Video 1—Source data 1. ")), "a file cited in a video's caption");
  assert.ok(lines.some((l) => l.startsWith("- Table 3—source data 1. ")), "a file in a table caption");
});

Deno.test("PMC's supplementary-material with several files: one line naming them all", () => {
  const [a] = parsePmcArticles(PMC_3258128, "u");
  const lines = fileLines(jatsDoc(a, "u").text);
  assert.deepEqual(lines, [
    "- Supplementary Data (files: supp_40_2_884__index.html, supp_gkr715_nar-02838-a-2010-File008.pdf, " +
    "supp_gkr715_nar-02838-a-2010-File009.pdf, supp_gkr715_nar-02838-a-2010-File007.doc)",
  ]);
});

Deno.test("sub-articles: the decision letter and the author response are sections of their own", () => {
  const [a] = parsePmcArticles(ELIFE_04490, "u");
  assert.deepEqual(a.subArticles.map((s) => s.heading), ["Decision letter", "Author response"]);
  assert.match(
    a.subArticles[0].text,
    /^By Jean T Greenberg \(Reviewing editor\)\.\n\neLife posts the editorial decision/,
  );
  assert.match(a.subArticles[1].text, /Answer to Question 2: Yes, the G-tests and Fisher’s tests are appropriate/);
  const text = jatsDoc(a, "u").text;
  const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(headings.slice(-3), ["References", "Decision letter", "Author response"]);
  assert.ok(
    text.endsWith("We have removed these comparisons. The corrected analysis does not change our conclusions at all."),
  );
});

Deno.test("an author response keeps its table (24 cells), figure and video", () => {
  const [a] = parsePmcArticles(ELIFE_00666, "u");
  const response = a.subArticles.find((s) => s.heading === "Author response")!;
  assert.match(
    response.text,
    /Author response Table 1\. Author response table\nSample \| Same \| Difference more than 10%\nDKO1\.cell\.1 \| 77\.00% \| 6\.90%\n(?:[^\n]+\n){6}DKS8\.cell\.2 \| 79\.70% \| 6\.70%/,
  );
  assert.match(response.text, /^Author response image 1\. Single figure:/m);
  assert.match(response.text, /^- Author response video 1\. .*\(video: elife-00666-resp-video1\.mp4\)$/m);
});

Deno.test("BMC/Springer 'Additional file' items: caption beside or inside the media, no label (BUILT snippet)", () => {
  // BUILT: the two layouts PMC shows for BMC articles' additional files (the caption a sibling of <media>,
  // or inside it), wrapped in the recorded PMC3258128's <article> shell; file names follow Springer's MOESM scheme.
  const xml = PMC_3258128.replace(
    /<sec sec-type="supplementary-material">[\s\S]*?<\/sec>/,
    `<sec sec-type="supplementary-material"><title>Electronic supplementary material</title>
      <supplementary-material content-type="local-data" id="MOESM1">
        <media xlink:href="12864_2016_1234_MOESM1_ESM.xlsx"/>
        <caption><p>Additional file 1: Table S1. Location of identified QTL regions.</p></caption>
      </supplementary-material>
      <supplementary-material content-type="local-data" id="MOESM2">
        <media xlink:href="12864_2016_1234_MOESM2_ESM.pdf"><caption><p>Additional file 2: Figure S1.</p></caption></media>
      </supplementary-material></sec>`,
  );
  const [a] = parsePmcArticles(xml, "u");
  assert.deepEqual(fileLines(jatsDoc(a, "u").text), [
    "- Additional file 1: Table S1. Location of identified QTL regions. (file: 12864_2016_1234_MOESM1_ESM.xlsx)",
    "- Additional file 2: Figure S1. (file: 12864_2016_1234_MOESM2_ESM.pdf)",
  ]);
});
