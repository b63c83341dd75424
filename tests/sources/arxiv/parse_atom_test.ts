import assert from "node:assert/strict";
import { UpstreamError } from "../../../src/core/errors.ts";
import { ArxivQueryError, parseArxivFeed } from "../../../src/sources/arxiv/parse_atom.ts";
import { fixture } from "../../helpers/runtime.ts";

const URL = "https://export.arxiv.org/api/query?id_list=x";
const feed = (name: string) => parseArxivFeed(fixture(`arxiv/api/${name}`), URL);

Deno.test("parseArxivFeed reads the current Atom serialization", async (t) => {
  await t.step("a versioned new-style entry keeps a title of '0' as text", () => {
    const f = feed("arxivpy__id_2104.12255v1.atom.xml");
    assert.equal(f.totalResults, 1);
    const [e] = f.entries;
    assert.equal(e.id, "2104.12255v1");
    assert.equal(e.title, "0");
    assert.deepEqual(e.authors, ["Quan Thoi Minh Nguyen"]);
    assert.equal(e.published, "2021-04-20T16:07:14Z");
    assert.equal(e.pdfUrl, "https://arxiv.org/pdf/2104.12255v1");
    assert.equal(e.absUrl, "https://arxiv.org/abs/2104.12255v1");
    assert.equal(e.primaryCategory, "cs.CR");
    assert.deepEqual(e.categories, ["cs.CR"]);
    assert.match(e.summary, /^What is the funniest number in cryptography\?/);
  });
  await t.step("34 proceedings authors are all kept, in order", () => {
    const [e] = feed("arxivpy__id_1707.08567.atom.xml").entries;
    assert.equal(e.authors.length, 34);
    assert.equal(e.authors[0], "Kees A. Schouhamer Immink");
    assert.equal(e.primaryCategory, "cs.IT");
  });
  await t.step("old-style ids, journal_ref and comment", () => {
    const [e] = feed("arxivpy__id_astro-ph_0601001.atom.xml").entries;
    assert.equal(e.id, "astro-ph/0601001v1");
    assert.equal(e.authors.length, 4);
    assert.ok(e.journalRef);
    assert.ok(e.comment);
    assert.equal(feed("arxivpy__id_quant-ph_0201082v1.atom.xml").entries[0].id, "quant-ph/0201082v1");
  });
  await t.step("a search page reports totals and its ten entries", () => {
    const f = feed("arxivpy__search_testing_m10.atom.xml");
    assert.equal(f.totalResults, 214881);
    assert.equal(f.itemsPerPage, 10);
    assert.equal(f.entries.length, 10);
    assert.equal(f.entries.filter((e) => e.doi).length, 6);
  });
});

Deno.test("parseArxivFeed reads the 2016 serialization (per-element xmlns, wrapped text)", () => {
  const f = feed("arxivpy__2016_search_del_maestro.atom.xml");
  assert.equal(f.totalResults, 2);
  const [first, second] = f.entries;
  assert.equal(first.id, "1111.2011v2");
  assert.equal(
    first.title,
    "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit",
  );
  assert.doesNotMatch(first.summary, /\n| {2}/);
  assert.equal(first.doi, "10.1103/PhysRevB.85.115117");
  assert.equal(first.journalRef, "Phys. Rev. B 85, 115117 (2012)");
  assert.equal(first.primaryCategory, "cond-mat.str-el");
  assert.deepEqual(first.categories, ["cond-mat.str-el", "cond-mat.stat-mech"]);
  assert.equal(first.pdfUrl, "https://arxiv.org/pdf/1111.2011v2");
  assert.equal(second.id, "cond-mat/0607501v2");
});

Deno.test("parseArxivFeed never turns a failure into an empty feed", async (t) => {
  await t.step("the empty feed is a real empty result", () => {
    const f = feed("arxivpy__id_0000.0000_empty.atom.xml");
    assert.equal(f.totalResults, 0);
    assert.deepEqual(f.entries, []);
  });
  await t.step("an error feed raises arXiv's message instead of a paper titled Error", () => {
    assert.throws(
      () => feed("arxivpy__id_abc_HTTP400_error.atom.xml"),
      (e) => e instanceof ArxivQueryError && e.message === "incorrect id format for abc",
    );
  });
  await t.step("'Rate exceeded.' with HTTP 200 raises a 429", () => {
    assert.throws(
      () => parseArxivFeed("Rate exceeded.", URL),
      (e) => e instanceof UpstreamError && e.status === 429 && e.upstream === "arxiv-api",
    );
  });
  await t.step("a feed cut in half is a parse error, not a shorter list of papers", () => {
    const whole = Deno.readTextFileSync(
      new globalThis.URL("../../../fixtures/arxiv/api/arxivpy__search_testing_m10.atom.xml", import.meta.url),
    );
    assert.throws(
      () => parseArxivFeed(whole.slice(0, Math.floor(whole.length / 2)), URL),
      (e) => e instanceof UpstreamError && e.kind === "parse" && /truncated/.test(e.message),
    );
  });
  for (const body of ["<html><body>Service Unavailable</body></html>", '{"error":"x"}', "", "<feed"]) {
    await t.step(`a non-feed body ${JSON.stringify(body.slice(0, 20))} is a parse error`, () => {
      assert.throws(() => parseArxivFeed(body, URL), (e) => e instanceof UpstreamError && e.kind === "parse");
    });
  }
});
