/** markupToText and the PubMed date helpers. */
import assert from "node:assert/strict";
import { decodeEntities, markupToText } from "../../../../src/sources/ncbi/pubmed/markup_text.ts";
import { freeDateParts, isoDate, pubMedDate, standardMonth } from "../../../../src/sources/ncbi/pubmed/dates.ts";

Deno.test("markupToText drops tags, keeps their text and decodes entities last", () => {
  assert.equal(markupToText("LE<sub>min</sub> &lt;i&gt; x"), "LEmin <i> x");
  assert.equal(markupToText("a\n   <b>bold</b>\tb"), "a bold b");
  assert.equal(markupToText('<mml:math alttext="x^2"><mml:msup><mml:mi>x</mml:mi></mml:msup></mml:math>'), "x^2");
  assert.equal(markupToText("<![CDATA[1 < 2]]>"), "1 < 2");
  assert.equal(markupToText(""), "");
});

Deno.test("decodeEntities handles numeric, hex and named entities and leaves unknown ones", () => {
  assert.equal(decodeEntities("&#x3bc;&#956;&amp;&quot;&nbsp;&unknown;"), 'μμ&"\u00a0&unknown;');
});

Deno.test("standardMonth accepts names, abbreviations and numbers", () => {
  assert.equal(standardMonth("Sep"), "09");
  assert.equal(standardMonth("Sept"), "09");
  assert.equal(standardMonth("9"), "09");
  assert.equal(standardMonth("12"), "12");
  assert.equal(standardMonth("13"), undefined);
  assert.equal(standardMonth("Spring"), undefined);
});

Deno.test("freeDateParts takes the first year and the month/day right after it", () => {
  assert.deepEqual(freeDateParts("2015 Oct-Dec"), { year: "2015", month: "10" });
  assert.deepEqual(freeDateParts("1998 Dec-1999 Jan"), { year: "1998", month: "12" });
  assert.deepEqual(freeDateParts("2011 Dec 5"), { year: "2011", month: "12", day: "05" });
  assert.deepEqual(freeDateParts("2000 Spring"), { year: "2000" });
  assert.deepEqual(freeDateParts("1976-1977"), { year: "1976" });
  assert.deepEqual(freeDateParts("Spring"), {});
});

Deno.test("isoDate gives the most precise ISO prefix", () => {
  assert.equal(isoDate("2011 Dec 5"), "2011-12-05");
  assert.equal(isoDate("1968 Aug"), "1968-08");
  assert.equal(isoDate("2015"), "2015");
  assert.equal(isoDate(""), undefined);
});

Deno.test("pubMedDate ignores a day without a month and an invalid year", () => {
  assert.deepEqual(pubMedDate({ year: "2020", day: "5" }), { year: "2020" });
  assert.deepEqual(pubMedDate({ year: "20xx", month: "Jan" }), { month: "01" });
});
