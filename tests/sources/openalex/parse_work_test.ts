import assert from "node:assert/strict";
import { abstractFrom, parseWork } from "../../../src/sources/openalex/parse_work.ts";
import { fixture } from "../../helpers/runtime.ts";

const work = (name: string) => parseWork(JSON.parse(fixture(`openalex/${name}`)));

Deno.test("parseWork reads a full 2025 work", () => {
  const w = work("openalexpython__W2741809807_2025.json");
  assert.equal(w.id, "W2741809807");
  assert.equal(w.title, "The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles");
  assert.equal(w.authors[0], "Heather Piwowar");
  assert.equal(w.publicationDate, "2018-02-13");
  assert.equal(w.doi, "10.7717/peerj.4375");
  assert.equal(w.pdfUrl, "https://peerj.com/articles/4375.pdf");
  assert.equal(w.isOa, true);
  assert.equal(w.oaLocations[0].pdfUrl, "https://peerj.com/articles/4375.pdf");
  assert.ok(w.citedByCount! > 0);
  assert.match(w.abstract ?? "", /^Despite growing interest in Open Access/);
  assert.equal(w.arxivId, undefined);
});

Deno.test("parseWork tolerates the odd records", async (t) => {
  await t.step("a dataset without abstract or open access", () => {
    const w = work("commonmeta__work_dataset_pdb4hhb.json");
    assert.equal(w.id, "W6945048743");
    assert.equal(w.abstract, undefined);
    assert.equal(w.isOa, false);
    assert.deepEqual(w.oaLocations, []);
    assert.equal(w.pdfUrl, undefined);
  });
  await t.step("a German title with no abstract", () => {
    const w = work("commonmeta__work_german_language_no_abstract.json");
    assert.equal(w.title, "Penisverletzung durch eine Moulinette");
    assert.equal(w.abstract, undefined);
  });
  await t.step("an open-access figure DOI with a landing page but no PDF", () => {
    const w = work("commonmeta__work_other_figure_component.json");
    assert.equal(w.isOa, true);
    assert.equal(w.pdfUrl, undefined);
    assert.match(w.oaLocations[0].landingPageUrl ?? "", /figshare\.com/);
  });
  await t.step("every work of a 200-result list page parses, some without authors", () => {
    const list = JSON.parse(fixture("openalex/openalexsdk__works_search_english_africa.json"));
    const works = list.results.map(parseWork);
    assert.equal(works.length, 200);
    assert.ok(works.every((w: { id: string }) => /^W\d+$/.test(w.id)));
    assert.equal(works.filter((w: { authors: string[] }) => w.authors.length === 0).length, 10);
  });
  await t.step("a work with an arXiv location knows its arXiv id", () => {
    const list = JSON.parse(fixture("openalex/openalexsdk__works_search_english_africa.json"));
    const raw = list.results.find((r: { id: string }) => r.id.endsWith("W2964235839"));
    assert.equal(parseWork(raw).arxivId, "1608.08868");
  });
});

Deno.test("abstractFrom rebuilds text from an inverted index, skipping gaps and junk", () => {
  assert.equal(abstractFrom({ world: [1, 3], Hello: [0], again: [2] }), "Hello world again world");
  assert.equal(abstractFrom({ a: [0], b: [5] }), "a b");
  assert.equal(abstractFrom({ a: ["x", -1, 0] }), "a");
  assert.equal(abstractFrom(null), undefined);
  assert.equal(abstractFrom({}), undefined);
});

Deno.test("parseWork reads the PMID and PMCID from ids, and is_retracted", () => {
  const w = work("openalexpython__W2741809807_2025.json");
  assert.deepEqual([w.pmid, w.pmcid, w.isRetracted], ["29456894", "PMC5815332", false]);
  const retracted = parseWork({ id: "https://openalex.org/W1", is_retracted: true, ids: {} });
  assert.equal(retracted.isRetracted, true);
});
