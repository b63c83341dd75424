/** Every recorded Crossref work maps to its hand-checked CSL-JSON (fixtures/crossref/csl/). */
import assert from "node:assert/strict";
import { crossrefToCsl } from "../../../src/sources/citations/from/crossref.ts";
import { crossrefFixtures, crossrefItem, crossrefWork, goldenCsl } from "./records.ts";

for (const name of crossrefFixtures()) {
  Deno.test(`Crossref → CSL-JSON: ${name} gives its golden item`, () => {
    assert.deepEqual(crossrefToCsl(crossrefWork(name)), goldenCsl(name));
  });
}

Deno.test("the type table: each Crossref type among the records maps to its CSL type", () => {
  const types = Object.fromEntries(
    crossrefFixtures().map((n) => [crossrefWork(n).type, crossrefToCsl(crossrefWork(n))]),
  );
  assert.equal(types["journal-article"].type, "article-journal");
  assert.equal(types["proceedings-article"].type, "paper-conference");
  assert.equal(types["monograph"].type, "book");
  assert.equal(types["book-chapter"].type, "chapter");
  assert.equal(types["posted-content"].type, "article");
  assert.equal(types["posted-content"].genre, "preprint");
  assert.equal(types["dataset"].type, "dataset");
  assert.equal(types["report"].type, "report");
  assert.equal(types["dissertation"].type, "thesis");
});

Deno.test("an article number is the item's number; publisher and publisher-place are kept", () => {
  const srep = crossrefItem("srep16696");
  assert.equal(srep.number, "16696");
  assert.equal(srep.page, undefined);
  assert.equal(srep.publisher, "Springer Science and Business Media LLC");
  const sigmod = crossrefItem("3448016.3452841");
  assert.equal(sigmod.publisher, "ACM");
  assert.equal(sigmod["publisher-place"], "New York, NY, USA");
  assert.equal(sigmod["event-title"], "SIGMOD/PODS '21: International Conference on Management of Data");
  for (const name of crossrefFixtures()) assert.ok(crossrefToCsl(crossrefWork(name)).publisher, `${name} publisher`);
});

Deno.test("control characters never reach the CSL item; whitespace runs and newlines become one space", () => {
  const w = crossrefWork("habanero__10.1038_srep16696.json");
  const item = crossrefToCsl({
    ...w,
    title: "Single\u0000-molecule\u001b[31m FRET\n\t studies\u0085",
    authors: [{ family: "Tos\u0007atto", given: "Lau\u200bra" }],
    containerTitle: "Scientific\u007f Reports",
  });
  assert.equal(item.title, "Single-molecule[31m FRET studies");
  assert.deepEqual(item.author, [{ family: "Tosatto", given: "Lau\u200bra" }]);
  assert.equal(item["container-title"], "Scientific Reports");
  // The bioRxiv record's title spans three lines of the answer.
  assert.equal(
    crossrefItem("2020.12.01.406702").title,
    "Identification of a novel cationic glycolipid in <i>Streptococcus agalactiae</i> that contributes to brain " +
      "entry and meningitis",
  );
});
