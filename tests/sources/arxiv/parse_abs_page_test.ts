import assert from "node:assert/strict";
import { parseAbsPage } from "../../../src/sources/arxiv/parse_abs_page.ts";
import { fixture } from "../../helpers/runtime.ts";

Deno.test("parseAbsPage reads the citation_* tags of an abstract page", () => {
  const e = parseAbsPage(fixture("arxiv/html/tkukurin__abs_2106.09608.html"))!;
  assert.equal(e.id, "2106.09608v2");
  assert.equal(e.title, "Learning Knowledge Graph-based World Models of Textual Environments");
  assert.deepEqual(e.authors, ["Prithviraj Ammanabrolu", "Mark O. Riedl"]);
  assert.equal(e.published, "2021-06-17");
  assert.equal(e.updated, "2021-10-20");
  assert.equal(e.pdfUrl, "https://arxiv.org/pdf/2106.09608");
  assert.match(e.summary, /^World models improve a learning agent's ability/);
  assert.equal(e.primaryCategory, "cs.LG");
  assert.deepEqual(e.categories, ["cs.LG", "cs.AI", "cs.CL"]);
  assert.equal(e.comment, "Camera read, in Proceedings of NeurIPS 2021 Main Conference");
  assert.equal(e.journalRef, undefined);
  assert.equal(e.doi, undefined);
});

Deno.test("parseAbsPage reads the journal ref and DOI rows of a published paper", () => {
  const e = parseAbsPage(fixture("arxiv/html/built__abs_1111.2011v2_jref_doi.html"))!;
  assert.equal(e.id, "1111.2011v2");
  assert.deepEqual(e.authors, ["James M. Murray", "Adrian Del Maestro", "Zlatko Tesanovic"]);
  assert.equal(e.primaryCategory, "cond-mat.str-el");
  assert.deepEqual(e.categories, ["cond-mat.str-el", "cond-mat.stat-mech"]);
  assert.equal(e.journalRef, "Phys. Rev. B 85, 115117 (2012)");
  assert.equal(e.doi, "10.1103/PhysRevB.85.115117");
  assert.equal(e.comment, "8 pages, 3 figures. Published version");
});

Deno.test("parseAbsPage reads old-style archive codes, which have no subject class", () => {
  const page = fixture("arxiv/html/built__abs_1111.2011v2_jref_doi.html").replace(
    /<span class="primary-subject">[^<]*<\/span>; [^<]*/,
    '<span class="primary-subject">High Energy Physics - Theory (hep-th)</span>; General Relativity and Quantum Cosmology (gr-qc)',
  );
  assert.deepEqual(parseAbsPage(page)!.categories, ["hep-th", "gr-qc"]);
});

Deno.test("parseAbsPage returns undefined for a page that is not an abstract page", () => {
  assert.equal(parseAbsPage(fixture("arxiv/html/arxivbrowse__html_2401.10725v1_eptcs_not_latexml.html")), undefined);
  assert.equal(parseAbsPage("<html><head><title>x</title></head></html>"), undefined);
});
