import assert from "node:assert/strict";
import { UpstreamError } from "../../../src/core/errors.ts";
import { abstractFrom, parseWork, parseWorkBody, parseWorksList } from "../../../src/sources/openalex/parse_work.ts";
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

Deno.test("parseWorkBody turns every unreadable or wrongly shaped body into an UpstreamError of kind parse", async (t) => {
  const recorded = fixture("openalex/openalexpython__W2741809807_2025.json");
  const mid = Math.floor(recorded.length / 2);
  const url = "https://api.openalex.org/works/W2741809807";
  const bodies: [string, string][] = [
    ["halfdoc", recorded.slice(0, mid)],
    ["malformed", `${recorded.slice(0, mid)}<<garbage>>${recorded.slice(mid)}`],
    ["html", "<html><body>Service Unavailable</body></html>"],
    ["rate-200", "Rate exceeded."],
    ["empty", ""],
    ["null", "null"],
    ["array", "[]"],
    ["no W id", '{"id":"https://openalex.org/A5023888391","display_name":"an author"}'],
  ];
  for (const [name, body] of bodies) {
    await t.step(name, () => {
      assert.throws(() => parseWorkBody(body, url), (error: unknown) => {
        assert.ok(error instanceof UpstreamError, `${name}: ${error}`);
        assert.equal(error.kind, "parse");
        assert.equal(error.upstream, "openalex");
        assert.match(error.message, /for https:\/\/api\.openalex\.org\/works\/W2741809807$/);
        return true;
      });
    });
  }
  await t.step("the recorded body still parses", () => assert.equal(parseWorkBody(recorded, url).id, "W2741809807"));
});

Deno.test("parseWorksList counts results that are not objects as unreadable and keeps the works", () => {
  const work = JSON.parse(fixture("openalex/openalexpython__W2741809807_2025.json"));
  const body = JSON.stringify({ meta: { count: 4 }, results: [null, work, 7, ["x"]] });
  const list = parseWorksList(body, "https://api.openalex.org/works");
  assert.deepEqual(list.works.map((w) => w.id), ["W2741809807"]);
  assert.equal(list.unreadable, 3);
  const clean = parseWorksList(JSON.stringify({ meta: { count: 1 }, results: [work] }), "u");
  assert.equal(clean.unreadable, undefined);
});
