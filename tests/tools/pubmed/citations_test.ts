/** Golden citations on real records: RIS, BibTeX, APA 7 and MLA 9. */
import assert from "node:assert/strict";
import { formatApa } from "../../../src/sources/citations/apa.ts";
import { bibtexKey, formatBibtex } from "../../../src/sources/citations/bibtex.ts";
import { formatMla } from "../../../src/sources/citations/mla.ts";
import { pageRange } from "../../../src/sources/citations/parts.ts";
import { formatRis } from "../../../src/sources/citations/ris.ts";
import { pubMedDate } from "../../../src/sources/ncbi/pubmed/dates.ts";
import { article } from "../../sources/ncbi/pubmed/fixtures.ts";

const panel = () => article("metapub__34843274.xml", "34843274");
const runners = () => article("biopython__pubmed6.xml", "30108519");
const microbiota = () => article("metapub__38147649.xml", "38147649");
const aids = () => article("biopython__pubmed1.xml", "12091962");
const toxBook = () => article("hawc__efetch_book_whole_book_26468569.xml", "26468569");

Deno.test("RIS: a journal article with a group author, tags in order, closed by ER", () => {
  const lines = formatRis(panel()).split("\n");
  assert.deepEqual(lines.slice(0, 12), [
    "TY  - JOUR",
    "AU  - Guideline Development Panel for the Treatment of Depressive Disorders",
    "TI  - Summary of the clinical practice guideline for the treatment of depression across three age cohorts.",
    "T2  - The American psychologist",
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
    "UR  - https://pubmed.ncbi.nlm.nih.gov/34843274/",
    "DB  - PubMed",
    "ER  - ",
  ]);
});

Deno.test("RIS: a whole book is TY BOOK with publisher, place and ISBN", () => {
  const ris = formatRis(toxBook());
  assert.match(
    ris,
    /^TY {2}- BOOK\nAU {2}- Committee on Predictive-Toxicology Approaches for Military Assessments of Acute Exposures\n/,
  );
  assert.match(ris, /\nPB {2}- National Academies Press \(US\)\nCY {2}- Washington \(DC\)\nSN {2}- 9780309376662\n/);
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
  assert.equal(bibtexKey(runners()), bibtexKey(runners()), "the same article always gets the same key");
  assert.equal(bibtexKey(microbiota()), "Ritz2024_38147649");
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

Deno.test("APA 7: group author, title-cased journal, volume(issue), en-dash pages, DOI URL", () => {
  assert.equal(
    formatApa(panel()),
    "Guideline Development Panel for the Treatment of Depressive Disorders. (2022). Summary of the clinical " +
      "practice guideline for the treatment of depression across three age cohorts. The American Psychologist, " +
      "77(6), 770–780. https://doi.org/10.1037/amp0000904",
  );
});

Deno.test("APA 7: two authors joined with &, a title ending in ? keeps it", () => {
  assert.equal(
    formatApa(runners()),
    'Garcia-Tabar, I., & Gorostiaga, E. M. (2018). A "Blood Relationship" Between the Overlooked Minimum Lactate ' +
      "Equivalent and Maximal Lactate Steady State in Trained Runners. Back to the Old Days? Frontiers in " +
      "Physiology, 9, 1034. https://doi.org/10.3389/fphys.2018.01034",
  );
});

Deno.test("APA 7: with 21 or more authors, the first 19, an ellipsis and the last", () => {
  const apa = formatApa(microbiota());
  assert.match(apa, /^Ritz, N\. L\., Brocka, M\., Butler, M\. I\., Cowan, C\. S\. M\., Barrera-Bugueño, C\., /);
  assert.match(apa, /, Moloney, G\. M\., Hill, C\., \. \. \. Cryan, J\. F\. \(2024\)\. Social anxiety/);
  assert.equal((apa.split(" (2024)")[0].match(/\., /g) ?? []).length, 19);
  assert.match(
    apa,
    /Proceedings of the National Academy of Sciences of the United States of America, 121\(1\), e2308706120\./,
  );
});

Deno.test("APA 7: without a DOI the PubMed URL is given; MEDLINE page abbreviations are expanded", () => {
  assert.equal(
    formatApa(aids()),
    "Olivero, J. M. (1990). The treatment of AIDS behind the walls of correctional facilities. Social Justice, " +
      "17(1), 113–125. https://pubmed.ncbi.nlm.nih.gov/12091962/",
  );
});

Deno.test("MLA 9: et al. from three authors, month abbreviations, shortened page range", () => {
  assert.equal(
    formatMla(panel()),
    'Guideline Development Panel for the Treatment of Depressive Disorders. "Summary of the clinical practice ' +
      'guideline for the treatment of depression across three age cohorts." The American Psychologist, vol. 77, ' +
      "no. 6, Sept. 2022, pp. 770-80. https://doi.org/10.1037/amp0000904.",
  );
  assert.match(formatMla(microbiota()), /^Ritz, Nathaniel L\., et al\. "Social anxiety disorder-associated gut/);
  assert.match(formatMla(microbiota()), /vol\. 121, no\. 1, 2 Jan\. 2024, p\. e2308706120\./);
});

Deno.test("MLA 9: two authors, quotes inside a title become single, a season stays a season", () => {
  assert.equal(
    formatMla(runners()),
    "Garcia-Tabar, Ibai, and Esteban M. Gorostiaga. \"A 'Blood Relationship' Between the Overlooked Minimum " +
      'Lactate Equivalent and Maximal Lactate Steady State in Trained Runners. Back to the Old Days?" Frontiers in ' +
      "Physiology, vol. 9, 2018, p. 1034. https://doi.org/10.3389/fphys.2018.01034.",
  );
  assert.match(formatMla(aids()), /Social Justice, vol\. 17, no\. 1, Spring 1990, pp\. 113-25\. https:\/\/pubmed/);
  assert.match(formatMla(article("metapub__23657305.xml", "23657305")), /no\. 1, Jan\.-Mar\. 2013, pp\. 35-41\./);
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
  const seasonal = article("metapub__23657305.xml", "23657305");
  const bib = formatBibtex(seasonal);
  assert.match(bib, /\n {2}month = \{Jan-Mar\},\n/);
  assert.doesNotMatch(bib, /month = jan/);
  assert.ok(formatRis(seasonal).split("\n").includes("DA  - 2013///Jan-Mar"));
  // "Spring" names no month either.
  assert.match(formatBibtex(aids()), /\n {2}month = \{Spring\},\n/);
  assert.ok(formatRis(aids()).split("\n").includes("DA  - 1990///Spring"));
});

Deno.test("a MedlineDate range is kept as text in every style; a single MedlineDate month and day are kept", () => {
  const ranged = article("pubmedparser__medline16n0902.xml", "21784659");
  assert.equal(ranged.journalInfo.publicationDate.medlineDate, "2012 Jan-Feb");
  assert.match(formatBibtex(ranged), /\n {2}month = \{Jan-Feb\},\n/);
  assert.ok(formatRis(ranged).split("\n").includes("DA  - 2012///Jan-Feb"));
  assert.match(formatMla(ranged), /, Jan\.-Feb\. 2012, /);
  // A range across years: the month PubMed derives (12) appears nowhere.
  const crossYear = {
    ...ranged,
    journalInfo: { ...ranged.journalInfo, publicationDate: pubMedDate({ medlineDate: "1998 Dec-1999 Jan" }) },
  };
  assert.equal(crossYear.journalInfo.publicationDate.month, "12", "the parser's sortable month");
  assert.match(formatBibtex(crossYear), /\n {2}year = \{1998\},\n {2}month = \{Dec-1999 Jan\},\n/);
  assert.ok(formatRis(crossYear).split("\n").includes("DA  - 1998///Dec-1999 Jan"));
  assert.match(formatMla(crossYear), /, 1998 Dec-1999 Jan, /);
  const exact = {
    ...ranged,
    journalInfo: { ...ranged.journalInfo, publicationDate: pubMedDate({ medlineDate: "2011 Dec 5" }) },
  };
  assert.match(formatBibtex(exact), /\n {2}month = dec,\n/);
  assert.ok(formatRis(exact).split("\n").includes("DA  - 2011/12/05/"));
});

Deno.test("a DOI becomes a percent-encoded link in APA and MLA; RIS and BibTeX keep the DOI itself", () => {
  const doi = "10.1002/(SICI)1097-0258(19980415)17:7<857::AID-SIM777>3.0.CO;2-E";
  const sici = { ...panel(), doi };
  const link = "https://doi.org/10.1002/(SICI)1097-0258(19980415)17:7%3C857::AID-SIM777%3E3.0.CO;2-E";
  assert.ok(formatApa(sici).endsWith(` ${link}`));
  assert.ok(formatMla(sici).endsWith(` ${link}.`));
  assert.ok(formatRis(sici).split("\n").includes(`DO  - ${doi}`));
  assert.match(
    formatBibtex(sici),
    /\n {2}doi = \{10\.1002\/\(SICI\)1097-0258\(19980415\)17:7<857::AID-SIM777>3\.0\.CO;2-E\},/,
  );
});
