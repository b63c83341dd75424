import assert from "node:assert/strict";
import { findDoi, parseReferences } from "../../../src/tools/papers/citations/parse_references.ts";
import { type Candidate, decide, mergeCandidates } from "../../../src/tools/papers/citations/match.ts";
import { titleSimilarity } from "../../../src/tools/papers/citations/similarity.ts";
import { bdataLine, parseECitMatch } from "../../../src/sources/ncbi/pubmed/ecitmatch.ts";
import { fixture } from "../../helpers/runtime.ts";

const strip = ({ text: _t, ...fields }: { text: string }) => fields;

Deno.test("a Vancouver reference yields authors, title, journal, year, volume, page and DOI", () => {
  const [r] = parseReferences([
    "1. Zhu N, Zhang D, Wang W, et al. A Novel Coronavirus from Patients with Pneumonia in China, 2019. " +
    "N Engl J Med. 2020;382(8):727-733. doi:10.1056/NEJMoa2001017.",
  ]);
  assert.deepEqual(strip(r), {
    doi: "10.1056/NEJMoa2001017",
    title: "A Novel Coronavirus from Patients with Pneumonia in China, 2019",
    firstAuthor: "Zhu",
    year: "2020",
    journal: "N Engl J Med",
    volume: "382",
    firstPage: "727",
  });
});

Deno.test("an APA reference yields its fields; initials do not end the author list", () => {
  const [r] = parseReferences([
    "Wakefield, A. J., Murch, S. H., & Anthony, A. (1998). Ileal-lymphoid-nodular " +
    "hyperplasia. The Lancet, 351(9103), 637–641. https://doi.org/10.1016/S0140-6736(97)11096-0",
  ]);
  assert.deepEqual(strip(r), {
    doi: "10.1016/S0140-6736(97)11096-0",
    title: "Ileal-lymphoid-nodular hyperplasia",
    firstAuthor: "Wakefield",
    year: "1998",
    journal: "The Lancet",
    volume: "351",
    firstPage: "637",
  });
});

Deno.test("BibTeX and RIS strings expand into one reference per entry; free text into one per line", () => {
  const refs = parseReferences([
    "@article{a, title={One}, author={Doe, Jane and Roe, R}, year={2001}, journal={J A}}\n" +
    '@book{b, title = "Two", author = "Ann Smith", year = 2002, eprint = {2104.12255}}',
    "TY  - JOUR\nAU  - Lee, K\nTI  - Three\nPY  - 2003/01/02\nER  - \nTY  - JOUR\nTI  - Four\nER  - ",
    "Doe J. A first title here. J X. 2004.\nRoe K. A second title here. J Y. 2005.",
  ]);
  assert.deepEqual(refs.map((r) => r.title), [
    "One",
    "Two",
    "Three",
    "Four",
    "A first title here",
    "A second title here",
  ]);
  assert.deepEqual(refs.map((r) => r.firstAuthor), ["Doe", "Smith", "Lee", undefined, "Doe", "Roe"]);
  assert.equal(refs[1].arxiv, "2104.12255");
  assert.equal(refs[2].year, "2003");
});

Deno.test("a DOI keeps its own parentheses and drops the sentence's", () => {
  assert.equal(findDoi("(doi:10.1016/S0140-6736(97)11096-0)."), "10.1016/S0140-6736(97)11096-0");
  assert.equal(findDoi("see https://doi.org/10.7717/peerj.4375, p. 3"), "10.7717/peerj.4375");
});

Deno.test("title similarity forgives typos and case, not a different title", () => {
  assert.ok(titleSimilarity("Englsh in Afrika: an introductoin", "English in Africa: An Introduction") >= 0.75);
  assert.equal(titleSimilarity("English in Africa: An introduction.", "English in Africa: An Introduction"), 1);
  assert.ok(titleSimilarity("Quantum entanglement of teapots", "English in Africa: An Introduction") < 0.5);
});

function candidate(fields: Partial<Candidate>): Candidate {
  return { journals: [], notices: [], updates: [], checked: new Set(), byId: false, ...fields };
}

Deno.test("two different works that match equally well are ambiguous; one work from two sources is not", () => {
  const [ref] = parseReferences(["Doe J. Sleep and memory. J Sleep. 2010."]);
  const a = candidate({ title: "Sleep and memory", firstAuthor: "Doe", year: "2010", doi: "10.1/a" });
  const b = candidate({ title: "Sleep and memory", firstAuthor: "Doe", year: "2010", doi: "10.1/b" });
  assert.equal(decide(ref, [a, b]).verdict, "ambiguous");
  const sameWork = mergeCandidates([a, candidate({ ...a, pmid: "1", checked: new Set(["PubMed"]) })]);
  assert.equal(sameWork.length, 1);
  assert.equal(decide(ref, sameWork).verdict, "verified", "a field the record lacks (journal) is not compared");
  assert.equal(decide(ref, [{ ...sameWork[0], journals: ["Brain"] }]).best?.disagree.join(), "journal");
});

Deno.test("the recorded ECitMatch answer reads as matches and NOT_FOUND", () => {
  assert.deepEqual(parseECitMatch(fixture("ncbi/eutils/pubmedclient__ecitmatch_mixed.txt")), [
    { key: "Art1", pmid: "2014248" },
    { key: "ref2", status: "NOT_FOUND;INVALID_JOURNAL" },
    { key: "Art4", pmid: "31978945" },
  ]);
  assert.equal(
    bdataLine({ journal: "N Engl J Med", year: "2020", volume: "382", firstPage: "727", author: "Zhu N", key: "a|b" }),
    "n engl j med|2020|382|727|zhu n|a b|",
  );
});
