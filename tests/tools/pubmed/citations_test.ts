/**
 * Golden citations on real PubMed records: RIS and BibTeX written from the CSL item, APA 7, MLA 9 and
 * NLM/Vancouver rendered by citeproc-js with the official styles.
 */
import assert from "node:assert/strict";
import { formatBibtex } from "../../../src/sources/citations/bibtex.ts";
import { formatCitations } from "../../../src/sources/citations/format.ts";
import { pubmedToCsl } from "../../../src/sources/citations/from/pubmed.ts";
import { pageRange } from "../../../src/sources/citations/parts.ts";
import { formatRis } from "../../../src/sources/citations/ris.ts";
import { pubMedDate } from "../../../src/sources/ncbi/pubmed/dates.ts";
import type { PubMedArticle } from "../../../src/sources/ncbi/pubmed/types.ts";
import { article } from "../../sources/ncbi/pubmed/fixtures.ts";

const csl = (name: string, pmid: string) => pubmedToCsl(article(name, pmid));
const panel = () => csl("metapub__34843274.xml", "34843274");
const runners = () => csl("biopython__pubmed6.xml", "30108519");
const microbiota = () => csl("metapub__38147649.xml", "38147649");
const aids = () => csl("biopython__pubmed1.xml", "12091962");
const toxBook = () => csl("hawc__efetch_book_whole_book_26468569.xml", "26468569");

async function style(item: ReturnType<typeof panel>, s: "apa_string" | "mla_string" | "vancouver_string") {
  return (await formatCitations(item, [s]))[s]!;
}

Deno.test("RIS: a journal article with a group author, tags in order, closed by ER", () => {
  const lines = formatRis(panel()).split("\n");
  assert.deepEqual(lines.slice(0, 12), [
    "TY  - JOUR",
    "AU  - Guideline Development Panel for the Treatment of Depressive Disorders",
    "TI  - Summary of the clinical practice guideline for the treatment of depression across three age cohorts",
    "T2  - The American Psychologist",
    "JO  - Am Psychol",
    "PY  - 2022",
    "DA  - 2022/09//",
    "VL  - 77",
    "IS  - 6",
    "SP  - 770",
    "EP  - 780",
    "SN  - 1935-990X",
  ]);
  assert.match(lines[12], /^AB {2}- The American Psychological Association \(APA\) developed/);
  assert.deepEqual(lines.slice(13), [
    "LA  - eng",
    "DO  - 10.1037/amp0000904",
    "AN  - 34843274",
    "DB  - PubMed",
    "ER  - ",
  ]);
  assert.ok(formatRis(aids()).split("\n").includes("UR  - https://pubmed.ncbi.nlm.nih.gov/12091962/"), "no DOI");
});

Deno.test("RIS: a whole book is TY BOOK with publisher, place and ISBN", () => {
  const ris = formatRis(toxBook());
  assert.match(
    ris,
    /^TY {2}- BOOK\nAU {2}- Committee on Predictive-Toxicology Approaches for Military Assessments of Acute Exposures\n/,
  );
  assert.match(ris, /\nCY {2}- Washington \(DC\)\n/);
  assert.match(ris, /\nPB {2}- National Academies Press \(US\)\nSN {2}- 9780309376662\n/);
  assert.match(ris, /\nDA {2}- 2015\/09\/01\/\n/);
});

Deno.test("BibTeX: a stable key, full names, expanded pages and an escaped title", () => {
  assert.equal(
    formatBibtex(runners()),
    [
      "@article{GarciaTabar2018_30108519,",
      "  author = {Garcia-Tabar, Ibai and Gorostiaga, Esteban M},",
      '  title = {{A "Blood Relationship" Between the Overlooked Minimum Lactate Equivalent and Maximal Lactate ' +
      "Steady State in Trained Runners. Back to the Old Days?}},",
      "  journal = {Frontiers in Physiology},",
      "  year = {2018},",
      "  volume = {9},",
      "  pages = {1034},",
      "  issn = {1664-042X},",
      "  doi = {10.3389/fphys.2018.01034},",
      "  pmid = {30108519},",
      "  pmcid = {PMC6079548}",
      "}",
    ].join("\n"),
  );
  assert.equal(runners().id, runners().id, "the same article always gets the same key");
  assert.equal(microbiota().id, "Ritz2024_38147649");
  assert.match(formatBibtex(aids()), /\n {2}pages = \{113--125\},\n/);
});

Deno.test("BibTeX: group authors are braced whole and a book is @book", () => {
  const bib = formatBibtex(toxBook());
  assert.match(bib, /^@book\{Committee2015_26468569,\n/);
  assert.match(
    bib,
    /author = \{\{Committee on Predictive-Toxicology .*Exposures\} and \{Committee on Toxicology\} and/,
  );
  assert.match(bib, /\n {2}publisher = \{National Academies Press \(US\)\},\n {2}address = \{Washington \(DC\)\},/);
  assert.equal(
    formatBibtex({ ...aids(), title: "50% of R&D costs_x $1 #2 {a}" }).split("\n")[2],
    "  title = {{50\\% of R\\&D costs\\_x \\$1 \\#2 \\{a\\}}},",
  );
});

Deno.test("APA 7 (citeproc): group author, title-cased journal, volume(issue), en-dash pages, DOI URL", async () => {
  assert.equal(
    await style(panel(), "apa_string"),
    "Guideline Development Panel for the Treatment of Depressive Disorders. (2022). Summary of the clinical " +
      "practice guideline for the treatment of depression across three age cohorts. The American Psychologist, " +
      "77(6), 770–780. https://doi.org/10.1037/amp0000904",
  );
});

Deno.test("APA 7 (citeproc): two authors joined with &, a title ending in ? keeps it", async () => {
  assert.equal(
    await style(runners(), "apa_string"),
    "Garcia-Tabar, I., & Gorostiaga, E. M. (2018). A “Blood Relationship” Between the Overlooked Minimum Lactate " +
      "Equivalent and Maximal Lactate Steady State in Trained Runners. Back to the Old Days? Frontiers in " +
      "Physiology, 9, 1034. https://doi.org/10.3389/fphys.2018.01034",
  );
});

Deno.test("APA 7 (citeproc): with 21 or more authors, the first 19, an ellipsis and the last", async () => {
  const apa = await style(microbiota(), "apa_string");
  assert.match(apa, /^Ritz, N\. L\., Brocka, M\., Butler, M\. I\., Cowan, C\. S\. M\., Barrera-Bugueño, C\., /);
  assert.match(apa, /, Moloney, G\. M\., Hill, C\., … Cryan, J\. F\. \(2024\)\. Social anxiety/);
  assert.match(
    apa,
    /Proceedings of the National Academy of Sciences of the United States of America, 121\(1\), e2308706120\./,
  );
});

Deno.test("APA 7 (citeproc): without a DOI the PubMed URL is given; MEDLINE page abbreviations are expanded", async () => {
  assert.equal(
    await style(aids(), "apa_string"),
    "Olivero, J. M. (1990). The treatment of AIDS behind the walls of correctional facilities. Social Justice, " +
      "17(1), 113–125. https://pubmed.ncbi.nlm.nih.gov/12091962/",
  );
});

Deno.test("MLA 9 (citeproc): et al. from three authors, month abbreviations, shortened page range", async () => {
  assert.equal(
    await style(panel(), "mla_string"),
    "Guideline Development Panel for the Treatment of Depressive Disorders. “Summary of the Clinical Practice " +
      "Guideline for the Treatment of Depression across Three Age Cohorts.” The American Psychologist, vol. 77, " +
      "no. 6, Sept. 2022, pp. 770–80, https://doi.org/10.1037/amp0000904.",
  );
  const ritz = await style(microbiota(), "mla_string");
  assert.match(ritz, /^Ritz, Nathaniel L\., et al\. “Social Anxiety Disorder-Associated Gut/);
  assert.match(ritz, /vol\. 121, no\. 1, Jan\. 2024, p\. e2308706120,/);
});

Deno.test("MLA 9 (citeproc): a season stays a season", async () => {
  assert.match(await style(aids(), "mla_string"), /Social Justice, vol\. 17, no\. 1, Spring 1990, pp\. 113–25, https:/);
  assert.match(
    await style(csl("metapub__23657305.xml", "23657305"), "mla_string"),
    /no\. 1, Jan-Mar 2013, pp\. 35–41,/,
  );
});

Deno.test("NLM/Vancouver (citeproc): ISO abbreviation, year month, shortened pages, PMID and PMCID", async () => {
  assert.equal(
    await style(runners(), "vancouver_string"),
    "Garcia-Tabar I, Gorostiaga EM. A “Blood Relationship” Between the Overlooked Minimum Lactate Equivalent and " +
      "Maximal Lactate Steady State in Trained Runners. Back to the Old Days? Front Physiol. 2018;9:1034. " +
      "doi:10.3389/fphys.2018.01034 PubMed PMID: 30108519; PubMed Central PMCID: PMC6079548.",
  );
  assert.match(await style(aids(), "vancouver_string"), /Soc Justice\. 1990 Spring;17\(1\):113–25\. PubMed PMID/);
});

Deno.test("pageRange expands MEDLINE abbreviations and leaves other tokens alone", () => {
  assert.deepEqual(pageRange("332-40"), { start: "332", end: "340" });
  assert.deepEqual(pageRange("1016-1021.e6"), { start: "1016", end: "1021.e6" });
  assert.deepEqual(pageRange("e1500050"), { start: "e1500050" });
  assert.deepEqual(pageRange("1787-8; discussion 1791"), { start: "1787", end: "1788" });
  assert.deepEqual(pageRange("011008"), { start: "011008" });
  assert.equal(pageRange(undefined), undefined);
});

Deno.test("a season range is kept as season text in BibTeX and RIS, never turned into its first month", () => {
  const seasonal = csl("metapub__23657305.xml", "23657305");
  const bib = formatBibtex(seasonal);
  assert.match(bib, /\n {2}month = \{Jan-Mar\},\n/);
  assert.doesNotMatch(bib, /month = jan/);
  assert.ok(formatRis(seasonal).split("\n").includes("DA  - 2013///Jan-Mar"));
  // "Spring" names no month either.
  assert.match(formatBibtex(aids()), /\n {2}month = \{Spring\},\n/);
  assert.ok(formatRis(aids()).split("\n").includes("DA  - 1990///Spring"));
});

Deno.test("a MedlineDate range is kept as text in every style; a single MedlineDate month and day are kept", async () => {
  const ranged = article("pubmedparser__medline16n0902.xml", "21784659");
  assert.equal(ranged.journalInfo.publicationDate.medlineDate, "2012 Jan-Feb");
  assert.match(formatBibtex(pubmedToCsl(ranged)), /\n {2}month = \{Jan-Feb\},\n/);
  assert.ok(formatRis(pubmedToCsl(ranged)).split("\n").includes("DA  - 2012///Jan-Feb"));
  assert.match(await style(pubmedToCsl(ranged), "mla_string"), /, Jan-Feb 2012, /);
  // A range across years: the month PubMed derives (12) appears nowhere.
  const dated = (medlineDate: string): PubMedArticle => ({
    ...ranged,
    journalInfo: { ...ranged.journalInfo, publicationDate: pubMedDate({ medlineDate }) },
  });
  const crossYear = dated("1998 Dec-1999 Jan");
  assert.equal(crossYear.journalInfo.publicationDate.month, "12", "the parser's sortable month");
  assert.match(formatBibtex(pubmedToCsl(crossYear)), /\n {2}year = \{1998\},\n {2}month = \{Dec-1999 Jan\},\n/);
  assert.ok(formatRis(pubmedToCsl(crossYear)).split("\n").includes("DA  - 1998///Dec-1999 Jan"));
  assert.match(await style(pubmedToCsl(crossYear), "mla_string"), /, Dec-1999 Jan 1998, /);
  const exact = pubmedToCsl(dated("2011 Dec 5"));
  assert.match(formatBibtex(exact), /\n {2}month = dec,\n/);
  assert.ok(formatRis(exact).split("\n").includes("DA  - 2011/12/05/"));
});

Deno.test("a DOI becomes a percent-encoded link in APA and MLA; RIS and BibTeX keep the DOI itself", async () => {
  const doi = "10.1002/(SICI)1097-0258(19980415)17:7<857::AID-SIM777>3.0.CO;2-E";
  const sici = { ...panel(), DOI: doi };
  const out = await formatCitations(sici, ["apa_string", "mla_string", "ris", "bibtex"]);
  const link = "https://doi.org/10.1002/(SICI)1097-0258(19980415)17:7%3C857::AID-SIM777%3E3.0.CO;2-E";
  assert.ok(out.apa_string!.endsWith(` ${link}`), out.apa_string);
  assert.ok(out.mla_string!.endsWith(` ${link}.`), out.mla_string);
  assert.ok(out.ris!.split("\n").includes(`DO  - ${doi}`));
  assert.match(
    out.bibtex!,
    /\n {2}doi = \{10\.1002\/\(SICI\)1097-0258\(19980415\)17:7<857::AID-SIM777>3\.0\.CO;2-E\},/,
  );
});
