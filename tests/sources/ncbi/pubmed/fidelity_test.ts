/** Parsing fidelity cases of issue 4, each on a real recorded PubMed record. */
import assert from "node:assert/strict";
import { parseEFetchPubMed } from "../../../../src/sources/ncbi/pubmed/parse_efetch.ts";
import { fixture } from "../../../helpers/runtime.ts";
import { article } from "./fixtures.ts";

const BASELINE = "pubmedparser__medline16n0902.xml";

Deno.test("identifiers, pages and volumes stay strings with their leading zeros and suffixes", () => {
  assert.equal(article(BASELINE, "26702408").journalInfo.pages, "011008");
  assert.equal(article(BASELINE, "26702406").journalInfo.pages, "044005");
  assert.equal(article(BASELINE, "26183313").journalInfo.pages, "1016-1021.e6");
  const pnas = article("metapub__38147649.xml", "38147649");
  assert.equal(pnas.journalInfo.pages, "e2308706120");
  assert.equal(pnas.journalInfo.issn, "1091-6490");
  const ald = article("metapub__23657305.xml", "23657305");
  assert.equal(ald.doi, "10.1590/s0004-28032013000100008");
  assert.equal(article("biopython__pubmed1.xml", "9997").pmid, "9997");
  assert.equal(article("metapub__34843274.xml", "34843274").journalInfo.publicationDate.month, "09");
});

Deno.test("inline markup in titles becomes readable text, neither lost nor [object Object]", () => {
  assert.equal(
    article("biopython__pubmed4.xml", "27797938").title,
    "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.",
  );
  assert.equal(
    article("metapub__28731372.xml", "28731372").title,
    "Exploring the effect of vitamin D3 supplementation on the anti-EBV antibody response in relapsing-remitting " +
      "multiple sclerosis.",
  );
  assert.equal(
    article("metapub__37167981.xml", "37167981").title,
    "Monte Carlo simulation of micro-x-ray fluorescence (μ-XRF) based detection of immunomagnetically labeled " +
      "tumor cells.",
  );
});

Deno.test("MathML and sub/superscripts in an abstract read as text, in document order", () => {
  const a = article("biopython__pubmed6.xml", "30108519");
  assert.equal(
    a.title,
    'A "Blood Relationship" Between the Overlooked Minimum Lactate Equivalent and Maximal Lactate Steady State ' +
      "in Trained Runners. Back to the Old Days?",
  );
  assert.match(a.abstractText!, /the disused "Minimum Lactate Equivalent" \(LEmin\), first described/);
  assert.match(a.abstractText!, /maximal oxygen uptake \( V\u0307O₂ₘₐₓ \) 67\.6 ± 4\.1 ml·kg-1·min-1\]/);
  assert.match(a.abstractText!, /\(P < 0\.001; ES: 3\.54\)/);
  assert.doesNotMatch(a.abstractText!, /mml|<\/?[a-z]|\[object/);
});

Deno.test("escaped angle brackets in an abstract stay as characters", () => {
  const a = article(BASELINE, "26487716");
  assert.match(a.abstractText!, /high precision \(<r\.m\.s\. deviation>bb ∼ 0\.23 Å\)/);
});

Deno.test("structured abstracts keep each section's label", () => {
  const text = article("metapub__23657305.xml", "23657305").abstractText!;
  const labels = text.split("\n\n").map((part) => part.split(":")[0]);
  assert.deepEqual(labels, ["CONTEXT", "OBJECTIVES", "METHODS", "RESULTS", "CONCLUSION"]);
  assert.match(text, /^CONTEXT: Alcoholic liver disease \(ALD\) is generally associated with iron overload/);
});

Deno.test("CollectiveName authors are kept as group authors", () => {
  assert.deepEqual(article("metapub__34843274.xml", "34843274").authors, [
    { collectiveName: "Guideline Development Panel for the Treatment of Depressive Disorders" },
  ]);
  const book = article("hawc__efetch_book_whole_book_26468569.xml", "26468569");
  assert.equal(book.authors.length, 6);
  assert.equal(
    book.authors[0].collectiveName,
    "Committee on Predictive-Toxicology Approaches for Military Assessments of Acute Exposures",
  );
  const mixed = article(BASELINE, "25345997").authors;
  assert.ok(mixed.some((x) => x.collectiveName === "Movement Disorder Group"));
  assert.ok(mixed.some((x) => x.lastName && !x.collectiveName));
});

Deno.test('authors marked ValidYN="N" are dropped', () => {
  // No recorded record carries ValidYN="N"; this flips the first author of a real record to it.
  const real = fixture("ncbi/pubmed/metapub__35649368.xml");
  const flipped = real.replace('<Author ValidYN="Y"><LastName>Li', '<Author ValidYN="N"><LastName>Li');
  assert.notEqual(flipped, real);
  const [before] = parseEFetchPubMed(real, "u");
  const [after] = parseEFetchPubMed(flipped, "u");
  assert.equal(before.authors[0].lastName, "Li");
  assert.equal(after.authors.length, before.authors.length - 1);
  assert.equal(after.authors[0].lastName, "Fahrmann");
});

Deno.test("MedlineDate is preserved and standardised to its first year and month", () => {
  assert.deepEqual(article(BASELINE, "26702171").journalInfo.publicationDate, {
    medlineDate: "2015 Oct-Dec",
    year: "2015",
    month: "10",
  });
  assert.deepEqual(article(BASELINE, "18621939").journalInfo.publicationDate, {
    medlineDate: "2008 Jul-Aug",
    year: "2008",
    month: "07",
  });
});

Deno.test("Season dates are preserved, with the month derived only when the season names one", () => {
  assert.deepEqual(article("biopython__pubmed1.xml", "12091962").journalInfo.publicationDate, {
    year: "1990",
    season: "Spring",
  });
  assert.deepEqual(article("metapub__23657305.xml", "23657305").journalInfo.publicationDate, {
    year: "2013",
    season: "Jan-Mar",
    month: "01",
  });
  assert.deepEqual(article("biopython__pubmed1.xml", "9997").journalInfo.publicationDate, {
    year: "1976",
    month: "09",
    day: "28",
  });
});

Deno.test("PubmedBookArticle records parse as books with editors, publisher and accession", () => {
  const gene = article("eutilsjson__efetch.pubmedbook.xml", "20301295");
  assert.equal(gene.recordType, "book");
  assert.equal(gene.title, "GeneReviews™");
  assert.equal(gene.book?.publisher, "University of Washington, Seattle");
  assert.equal(gene.book?.bookAccession, "NBK1116");
  assert.deepEqual(gene.book?.editors.map((e) => e.lastName), ["Pagon", "Bird", "Dolan", "Stephens", "Adam"]);
  assert.equal(gene.journalInfo.publicationDate.year, "1993");
  assert.match(gene.abstractText!, /^GeneReviews are expert-authored/);
  const nap = article("hawc__efetch_book_whole_book_26468569.xml", "26468569");
  assert.equal(nap.doi, "10.17226/21775");
  assert.deepEqual(nap.book?.isbn, ["9780309376662"]);
  assert.deepEqual(nap.publicationTypes, ["Review"]);
  assert.deepEqual(nap.journalInfo.publicationDate, { year: "2015", month: "09", day: "01" });
});

Deno.test("a book chapter keeps its own contribution and revision dates beside the series start", () => {
  const chapter = article("built__efetch_book_chapter_20301425.xml", "20301425");
  assert.equal(chapter.recordType, "book_chapter");
  assert.equal(chapter.title, "BRCA1- and BRCA2-Associated Hereditary Breast and Ovarian Cancer");
  assert.deepEqual(chapter.journalInfo.publicationDate, { year: "1993" }, "the book's PubDate: the series start");
  assert.deepEqual(chapter.book?.contributionDate, { year: "1998", month: "09", day: "04" });
  assert.deepEqual(chapter.book?.revisedDate, { year: "2023", month: "09", day: "21" });
  assert.deepEqual(chapter.book?.beginningDate, { year: "1993" });
  assert.deepEqual(chapter.book?.endingDate, { year: "2025" });
  const whole = article("eutilsjson__efetch.pubmedbook.xml", "20301295");
  assert.deepEqual(whole.book?.beginningDate, { year: "1993" });
  assert.equal(whole.book?.contributionDate, undefined, "a whole book has no chapter dates");
});

Deno.test("OtherAbstract is kept beside the abstract, labelled by its Type and language", () => {
  const a = article("pubmedparser__medline16n0902.xml", "26702272");
  assert.deepEqual(a.otherAbstracts, [{
    type: "Publisher",
    language: "pol",
    text: "Abstract available from the publisher.",
  }]);
  assert.equal(article("biopython__pubmed4.xml", "27797938").otherAbstracts, undefined);
});

Deno.test("VernacularTitle is kept beside the English title", () => {
  const a = article("metapub__36987902.xml", "36987902");
  assert.equal(
    a.title,
    "Patients over 75 years admitted to the National Burn Centre, Haukeland University Hospital, 2000-19.",
  );
  assert.equal(
    a.vernacularTitle,
    "Pasienter over 75\u00a0år innlagt ved Brannskadeavdelinga, Haukeland universitetssjukehus 2000–19.",
  );
  assert.deepEqual(a.languages, ["eng", "nor"]);
  assert.equal(article(BASELINE, "26407462").vernacularTitle, "I vaccini sono farmaci.");
});

Deno.test("records with no abstract and no author list parse with those fields empty", () => {
  const a = article("metapub__38962805.xml", "38962805");
  assert.equal(a.title, "Correction.");
  assert.equal(a.abstractText, undefined);
  assert.deepEqual(a.authors, []);
  assert.equal(article("biopython__pubmed1.xml", "12091962").abstractText, undefined);
});

Deno.test("authors carry affiliations and bare ORCID iDs; grants, keywords and MeSH are read", () => {
  const a = article("metapub__38147649.xml", "38147649");
  assert.deepEqual(a.authors[0], {
    lastName: "Ritz",
    firstName: "Nathaniel L",
    initials: "NL",
    affiliation:
      "Alimentary Pharmabiotic Centre Microbiome Ireland, University College Cork, Cork T12YT20, Ireland.; " +
      "Department of Anatomy and Neuroscience, University College Cork, Cork T12YT20, Ireland.",
    orcid: "0000-0002-7367-292X",
  });
  assert.ok(a.authors.some((x) => x.lastName === "Barrera-Bugueño"), "numeric character references decoded");
  assert.deepEqual(a.grantList, [{ agency: "Wellcome Trust", country: "United Kingdom", acronym: "WT_" }]);
  assert.deepEqual(a.keywords, ["faecal transplant", "microbiome", "microbiota-gut-brain axis", "social phobia"]);
  assert.equal(a.pmcId, "PMC10769841");
  const mesh = article("metapub__34843274.xml", "34843274").meshTerms;
  assert.deepEqual(mesh.find((m) => m.descriptorName === "Depression"), {
    descriptorName: "Depression",
    qualifierName: "therapy",
    isMajorTopic: true,
    ui: "D003863",
  });
  assert.deepEqual(mesh[0], { descriptorName: "Adolescent", isMajorTopic: false, ui: "D000293" });
});
