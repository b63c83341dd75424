import assert from "node:assert/strict";
import { fieldLines, inlineList, recordSection, textBlock } from "../../src/render/markdown.ts";
import { authorLines, dateText, meshLine } from "../../src/tools/pubmed/render.ts";

Deno.test("fieldLines writes key: value lines and skips empty values and machine-only keys", () => {
  const lines = fieldLines({
    symbol: "TP53",
    score: 0,
    reviewed: true,
    summary: "",
    aliases: [],
    missing: undefined,
    title: null,
    eSearchUrl: "https://eutils.ncbi.nlm.nih.gov/...",
  });
  assert.deepEqual(lines, ["symbol: TP53", "score: 0", "reviewed: yes"]);
});

Deno.test("fieldLines lists scalars inline, switching separators when items hold commas", () => {
  assert.deepEqual(fieldLines({ aliases: ["P53", "LFS1"] }), ["aliases: P53, LFS1"]);
  assert.deepEqual(fieldLines({ synonyms: ["2-acetoxy, acid", "aspirin"] }), ["synonyms: 2-acetoxy, acid; aspirin"]);
  assert.deepEqual(fieldLines({ odd: ["a, b; c", "d"] }), ["odd:", "- a, b; c", "- d"]);
  assert.equal(inlineList([1, 2.5]), "1, 2.5");
});

Deno.test("fieldLines keeps multi-line text verbatim after its key", () => {
  const text = "# Intro\n\nFirst paragraph.\n\n\n  indented line";
  const lines = fieldLines({ text });
  assert.equal(lines[0], "text:");
  assert.ok(lines.join("\n").includes(text));
});

Deno.test("fieldLines puts small records on one line and larger ones on indented lines", () => {
  assert.deepEqual(fieldLines({ organism: { name: "Homo sapiens", taxon_id: "9606" } }), [
    "organism: name: Homo sapiens; taxon_id: 9606",
  ]);
  const long = "x".repeat(170);
  assert.deepEqual(fieldLines({ nested: { a: long, b: "y" } }), ["nested:", `  a: ${long}`, "  b: y"]);
});

Deno.test("fieldLines renders lists of records as bullets", () => {
  assert.deepEqual(fieldLines({ targets: [{ name: "CYP3A4", geneId: 1576 }, { name: "CYP2D6" }] }), [
    "targets:",
    "- name: CYP3A4; geneId: 1576",
    "- name: CYP2D6",
  ]);
});

Deno.test("fieldLines honours omit and per-key formats", () => {
  const lines = fieldLines({ id: "X", when: { y: "2020" } }, {
    omit: ["id"],
    format: { when: (d: { y: string }) => `year ${d.y}` },
  });
  assert.deepEqual(lines, ["year 2020"]);
});

Deno.test("recordSection is a heading followed by the record's fields", () => {
  assert.deepEqual(recordSection("CID 2244", { CID: 2244, XLogP: 1.2 }, { omit: ["CID"] }), [
    "",
    "## CID 2244",
    "XLogP: 1.2",
  ]);
});

Deno.test("textBlock drops blank lines at the ends only and skips absent parts", () => {
  assert.equal(textBlock("", "head", undefined, false, ["a", "", "", "b"], ""), "head\na\n\n\nb");
});

Deno.test("PubMed authors read as cited, with given names and numbered shared affiliations", () => {
  const lines = authorLines([
    { lastName: "Qian", firstName: "Zhi Rong", initials: "ZR", affiliation: "Dana-Farber" },
    { lastName: "Ng", firstName: "K", initials: "K", affiliation: "Dana-Farber", orcid: "0000-0001" },
    { collectiveName: "Guideline Panel" },
  ]);
  assert.deepEqual(lines, [
    "authors: Qian ZR (Zhi Rong) [1], Ng K ORCID 0000-0001 [1], Guideline Panel",
    "affiliations:",
    "1. Dana-Farber",
  ]);
});

Deno.test("PubMed dates and MeSH terms keep every part", () => {
  assert.equal(dateText({ year: "2016", month: "10", day: "31" }), "2016-10-31");
  assert.equal(dateText({ year: "2015", season: "Spring" }), "2015 Spring");
  assert.equal(dateText({ medlineDate: "2015 Oct-Dec" }), "2015 Oct-Dec");
  assert.equal(
    meshLine([
      { descriptorName: "Humans", isMajorTopic: false, ui: "D006801" },
      { descriptorName: "Neoplasms", qualifierName: "genetics", isMajorTopic: true },
    ]),
    "MeSH (* major topic): Humans [D006801]; Neoplasms / genetics*",
  );
});
