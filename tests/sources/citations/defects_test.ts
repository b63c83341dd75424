/**
 * The defects issue #39 found on real Crossref records, each on the record that showed it. The hand-written
 * formatters got every one of these wrong.
 */
import assert from "node:assert/strict";
import { formatCitations } from "../../../src/sources/citations/format.ts";
import { crossrefItem } from "./records.ts";

Deno.test("an article number (Sci Rep 16696) is the locator in every format", async () => {
  const out = await formatCitations(crossrefItem("srep16696"), [
    "apa_string",
    "vancouver_string",
    "mla_string",
    "ieee_string",
    "nature_string",
    "harvard_string",
    "ama_string",
    "chicago_author_date_string",
    "bibtex",
    "ris",
    "csl_json",
  ]);
  assert.match(out.apa_string!, /Scientific Reports, 5\(1\), Article 16696\. https:\/\/doi\.org\/10\.1038\/srep16696$/);
  assert.match(out.vancouver_string!, /Sci Rep\. 2015 Nov 19;5\(1\):16696\. doi:10\.1038\/srep16696$/);
  assert.match(out.ieee_string!, /Art\. no\. 16696/);
  assert.match(out.nature_string!, /Sci Rep 5, 16696 \(2015\)/);
  for (const style of ["mla_string", "harvard_string", "ama_string", "chicago_author_date_string"] as const) {
    assert.match(out[style]!, /16696/, style);
  }
  assert.match(out.bibtex!, /\n {2}eid = \{16696\},\n/);
  assert.ok(out.ris!.split("\n").includes("C7  - 16696"));
  assert.equal(JSON.parse(out.csl_json!).number, "16696");
});

Deno.test("a proceedings article is a conference paper: CSL paper-conference, @inproceedings with booktitle, RIS CONF", async () => {
  const out = await formatCitations(crossrefItem("icdcsw.2003.1203662"), ["csl_json", "bibtex", "ris", "apa_string"]);
  assert.equal(JSON.parse(out.csl_json!).type, "paper-conference");
  assert.match(out.bibtex!, /^@inproceedings\{Arya_10\.1109icdcsw\.2003\.1203662,\n/);
  assert.match(out.bibtex!, /\n {2}booktitle = \{23rd International Conference on Distributed Computing Systems/);
  assert.doesNotMatch(out.bibtex!, /journal = /);
  const ris = out.ris!.split("\n");
  assert.equal(ris[0], "TY  - CONF");
  assert.ok(
    ris.includes("C3  - 23rd International Conference on Distributed Computing Systems Workshops, 2003. Proceedings."),
  );
  assert.ok(ris.includes("CY  - Providence, Rhode Island, USA"));
});

Deno.test("publisher is in the CSL-JSON of every record, and publisher-place where Crossref has it", async () => {
  const chapter = JSON.parse((await formatCitations(crossrefItem("46370_3_13"), ["csl_json"])).csl_json!);
  assert.equal(chapter.publisher, "Springer Berlin Heidelberg");
  assert.equal(chapter["publisher-place"], "Berlin, Heidelberg");
  const ijo = JSON.parse((await formatCitations(crossrefItem("ijo_00000353"), ["csl_json"])).csl_json!);
  assert.equal(ijo.publisher, "Spandidos Publications");
});

Deno.test("BibTeX doi and url are verbatim: an underscore stays an underscore", async () => {
  const { bibtex } = await formatCitations(crossrefItem("ijo_00000353"), ["bibtex"]);
  assert.match(bibtex!, /\n {2}doi = \{10\.3892\/ijo_00000353\}\n\}$/);
  assert.doesNotMatch(bibtex!, /ijo\\_/);
});

Deno.test("Vancouver shortens page ranges as NLM does (519-527 → 519–27)", async () => {
  const { vancouver_string } = await formatCitations(crossrefItem("jor.1100150407"), ["vancouver_string"]);
  assert.match(vancouver_string!, /1997 Jul;15\(4\):519–27\. doi:10\.1002\/jor\.1100150407$/);
});

Deno.test("APA keeps the hyphen of hyphenated initials (Jun-Gyo Suh → Suh, J.-G.)", async () => {
  const { apa_string } = await formatCitations(crossrefItem("neurobiolaging"), ["apa_string"]);
  assert.match(apa_string!, /, Suh, J\.-G\., Lee, B\.-H\., Jin, H\. K\., & Bae, J\. \(2012\)\./);
});
