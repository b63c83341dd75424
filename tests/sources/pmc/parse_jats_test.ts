import assert from "node:assert/strict";
import { UpstreamError } from "../../../src/core/errors.ts";
import { parsePmcArticles } from "../../../src/sources/pmc/parse_jats.ts";
import { fixture } from "../../helpers/runtime.ts";

const FULL = fixture("ncbi/pmc/biocommons__pmc_PMC3299399.xml");

Deno.test("parsePmcArticles reads a full-text review: ids, title, authors, date, journal, abstract", () => {
  const [a] = parsePmcArticles(FULL, "u");
  assert.equal(a.pmcid, "PMC3299399");
  assert.equal(a.pmid, "22416237");
  assert.equal(a.doi, "10.3389/fpsyt.2012.00018");
  assert.equal(a.title, "The Effects of Psychosis Risk Variants on Brain Connectivity: A Review");
  assert.deepEqual(a.authors, ["Omar Mothersill", "Sinead Kelly", "Emma Jane Rose", "Gary Donohoe"]);
  assert.equal(a.date, "2012-03-09");
  assert.equal(a.journal, "Frontiers in Psychiatry");
  assert.equal(a.articleType, "review-article");
  assert.equal(a.openAccess, true);
  assert.equal(a.hasBody, true);
  assert.match(a.abstract!, /^In light of observed changes in connectivity in schizophrenia/);
  assert.match(a.abstract!, /\(mean d = 0\.76\)/, "inline <italic> and thin spaces read as text");
});

Deno.test("parsePmcArticles keeps the section tree, tables as rows and figures as captions", () => {
  const [a] = parsePmcArticles(FULL, "u");
  assert.deepEqual(a.sections.map((s) => s.heading), [
    "Introduction",
    "Methods",
    "Results",
    "Discussion",
    "Conflict of Interest Statement",
  ]);
  const intro = a.sections[0].text;
  assert.match(
    intro,
    /^### Examining the function of schizophrenia \(SZ\) risk variants\n\nSchizophrenia is a complex/,
  );
  assert.match(intro, /\n#### Diffusion tensor imaging\n/, "a subsection one level deeper");
  assert.match(intro, /\(Ogawa et al\., 1990\)/, "citation xrefs keep their text");
  const results = a.sections[2].text;
  assert.match(results, /Table 1\. Details of the functional connectivity studies included in this meta-analysis\.\n/);
  assert.match(
    results,
    /First author and date \| Gene of interest \| Connectivity \| Method \| Statistic \| n \| Cohen’s d/,
  );
  assert.match(results, /Figure 1\. /);
  assert.equal(
    a.backMatter,
    "## Acknowledgments\n\nThis work was supported by a Science Foundation Ireland research award to " +
      "Professor Aiden Corvin (SFI08/IN.1/B1916-Corvin).",
  );
});

Deno.test("parsePmcArticles writes references with authors, separators and ids", () => {
  const [a] = parsePmcArticles(FULL, "u");
  assert.equal(a.references.length, 76);
  assert.equal(
    a.references[1],
    "M. Breakspear, J. R. Terry, K. J. Friston, A. W. Harris, L. M. Williams, K. Brown, J. Brennan, E. Gordon (2003). " +
      "A disturbance of nonlinear interdependence in scalp EEG of subjects with first episode schizophrenia. " +
      "Neuroimage 20, 466–478 doi:10.1016/S1053-8119(03)00332-X PMID:14527607",
  );
});

Deno.test("parsePmcArticles reads a body without sections as one untitled section", () => {
  const [a] = parsePmcArticles(fixture("ncbi/pmc/biopython__efetch_pmc.xml"), "u");
  assert.equal(a.pmcid, "PMC8435807");
  assert.equal(a.articleType, "correction");
  assert.equal(a.date, "2021-09-13");
  assert.deepEqual(a.authors, []);
  assert.equal(a.sections.length, 1);
  assert.equal(a.sections[0].heading, "");
  assert.match(a.sections[0].text, /corrected to −15\.1% in the published article\.$/);
});

Deno.test("parsePmcArticles marks an article whose full text PMC withholds as having no body", () => {
  const [a] = parsePmcArticles(fixture("ncbi/pmc/built__efetch_pmc_no_body_PMC5442267.xml"), "u");
  assert.equal(a.hasBody, false);
  assert.equal(a.openAccess, false);
  assert.deepEqual(a.sections, []);
  assert.equal(
    a.title,
    "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer",
  );
});

Deno.test("parsePmcArticles: math as TeX, lists as items, empty sets and broken bodies", () => {
  const xml = `<pmc-articleset><article><front><article-meta><title-group><article-title>T</article-title>
    </title-group></article-meta></front><body><sec><title>Model</title><p>Energy <inline-formula><tex-math>E=mc^2</tex-math>
    </inline-formula> and <inline-formula><mml:math alttext="x^{2}"><mml:msup><mml:mi>x</mml:mi><mml:mn>2</mml:mn>
    </mml:msup></mml:math></inline-formula>.<list><list-item><p>one</p></list-item><list-item><p>two</p></list-item></list></p>
    <disp-formula><tex-math>a+b</tex-math></disp-formula></sec></body></article></pmc-articleset>`;
  const [a] = parsePmcArticles(xml, "u");
  assert.equal(a.sections[0].text, "Energy $E=mc^2$ and $x^{2}$.\n\n- one\n- two\n\n$$a+b$$");
  assert.deepEqual(parsePmcArticles("<pmc-articleset></pmc-articleset>", "u"), []);
  assert.throws(() => parsePmcArticles("<pmc-articleset><article>", "u"), UpstreamError);
  assert.throws(() => parsePmcArticles("Service unavailable", "u"), /not valid XML/);
  assert.throws(
    () => parsePmcArticles("<eFetchResult><ERROR>UID=999 not found</ERROR></eFetchResult>", "u"),
    /PMC answered with an error: UID=999 not found/,
  );
});

const FLOATS = fixture("ncbi/pmc/built__efetch_pmc_floats_PMC9000001.xml");

Deno.test("parsePmcArticles reads tables and figure captions PMC moved into <floats-group>", () => {
  const [a] = parsePmcArticles(FLOATS, "u");
  assert.deepEqual(a.sections.map((s) => s.heading), ["Results", "Figures and tables"]);
  const floats = a.sections[1].text;
  assert.match(floats, /^Fig 1\. Rate against chain length\. Each point is one run\./);
  assert.match(floats, /\n\nFig 2\. Second figure caption\.\n\n/);
  assert.match(floats, /Table 1\. Rates by chain length\.\nChain \| Rate\^a\nC8\^b \| 12\nC16 \| 7\n/);
  assert.match(floats, /Table 2\. Conditions\.\npH \| 7\.4\n/);
});

Deno.test("parsePmcArticles keeps each table footnote on its own line with its label", () => {
  const [a] = parsePmcArticles(FLOATS, "u");
  const floats = a.sections[1].text;
  assert.match(floats, /\na\) Rates are in turnovers per min\.\nb\) Chain lengths tested include C8 to C16\./);
  assert.match(floats, /\nc\) Buffered with HEPES\.\nd\) At 37 °C\.\nAbbreviations: HEPES/);
  const [review] = parsePmcArticles(FULL, "u");
  assert.ok(review.sections.some((s) => /\nn, sample size; FA, fractional anisotropy/.test(s.text)));
});

Deno.test("parsePmcArticles keeps every abstract, labelled by its abstract-type", () => {
  const [a] = parsePmcArticles(FLOATS, "u");
  assert.equal(a.abstract, "The main abstract states the finding.");
  assert.deepEqual(a.otherAbstracts, [
    { type: "summary", heading: "Author Summary", text: "A plain-language summary for readers outside the field." },
    { type: "graphical", heading: "Graphical abstract", text: "A graphical abstract's caption text." },
    { type: "teaser", heading: "Teaser", text: "One sentence that teases the result." },
    { type: "editor", heading: "Editor's summary", text: "What the editor says about it." },
    { type: "trans-abstract", heading: "Translated abstract (fr)", text: "Le résumé en français." },
  ]);
  const only = `<pmc-articleset><article><front><article-meta><abstract abstract-type="summary"><p>S</p></abstract>
    </article-meta></front></article></pmc-articleset>`;
  assert.equal(parsePmcArticles(only, "u")[0].abstract, "S", "a typed abstract stands in when none is untyped");
});

Deno.test("parsePmcArticles calls an outage page or another XML an upstream error, not an empty answer", () => {
  const page = `<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head>
    <body><h1>Service Temporarily Unavailable</h1></body></html>`;
  assert.throws(() => parsePmcArticles(page, "u"), (e) => {
    assert.ok(e instanceof UpstreamError);
    assert.equal(e.kind, "parse");
    assert.match(e.message, /an HTML page \("503 Service Temporarily Unavailable"\) instead of a PMC article set/);
    return true;
  });
  assert.throws(
    () => parsePmcArticles("<eSearchResult><Count>0</Count></eSearchResult>", "u"),
    /an XML document <eSearchResult> instead of a PMC article set/,
  );
});
