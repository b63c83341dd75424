/** Every style export_citations offers renders every recorded Crossref work, through citeproc-js. */
import assert from "node:assert/strict";
import { EXPORT_STYLES, formatCitations } from "../../../src/sources/citations/format.ts";
import { crossrefFixtures, goldenCsl } from "./records.ts";

for (const name of crossrefFixtures()) {
  Deno.test(`every style renders ${name}`, async () => {
    const item = goldenCsl(name);
    const out = await formatCitations(item, EXPORT_STYLES);
    assert.deepEqual(Object.keys(out), [...EXPORT_STYLES]);
    const firstWord = item.title.replace(/<[^>]+>/g, "").split(/[\s:]/)[0];
    for (const [style, text] of Object.entries(out)) {
      assert.ok(text && text.length > 20, `${style} is empty for ${name}`);
      assert.ok(text.toLowerCase().includes(firstWord.toLowerCase()), `${style} lacks the title: ${text}`);
      assert.doesNotMatch(text, /undefined|\[object Object\]|NaN/, `${style}: ${text}`);
      if (style.endsWith("_string")) {
        assert.doesNotMatch(text, /<\/?[a-z]+>/, `${style} is plain text: ${text}`);
        assert.doesNotMatch(text, /^\[?1[\].]/, `${style} carries no bibliography number: ${text}`);
      }
    }
  });
}

Deno.test("the four seed styles and Vancouver keep their names; the CSL styles follow", () => {
  assert.deepEqual(EXPORT_STYLES.slice(0, 6), [
    "ris",
    "bibtex",
    "apa_string",
    "mla_string",
    "csl_json",
    "vancouver_string",
  ]);
  for (const s of ["chicago_author_date_string", "ieee_string", "nature_string", "harvard_string", "ama_string"]) {
    assert.ok((EXPORT_STYLES as readonly string[]).includes(s), s);
  }
});
