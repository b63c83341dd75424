import assert from "node:assert/strict";
import { UpstreamError } from "../../../../src/core/errors.ts";
import {
  assertComplete,
  attribute,
  decodeEntities,
  findElement,
  findElements,
  indexIn,
  leafText,
} from "../../../../src/sources/ncbi/gene/xml_scan.ts";

const XML = `<Set><Gene-commentary><Gene-commentary_type value="comment">254</Gene-commentary_type>
<Gene-commentary_heading>Outer</Gene-commentary_heading><Gene-commentary_products><Gene-commentary>
<Gene-commentary_heading>Inner</Gene-commentary_heading><Na-strand value="minus"/></Gene-commentary>
</Gene-commentary_products></Gene-commentary><Gene-commentary><Gene-commentary_heading>Second</Gene-commentary_heading>
</Gene-commentary></Set>`;

Deno.test("findElement skips nested elements of the same name and prefix-named siblings", () => {
  const outer = findElement(XML, "Gene-commentary")!;
  assert.ok(XML.slice(outer.start, outer.end).endsWith("</Gene-commentary_products></Gene-commentary>"));
  assert.equal(leafText(XML, "Gene-commentary_heading", outer.contentStart, outer.contentEnd), "Outer");
  const siblings = findElements(XML, "Gene-commentary", 0, XML.length);
  assert.deepEqual(siblings.map((s) => leafText(XML, "Gene-commentary_heading", s.contentStart, s.contentEnd)), [
    "Outer",
    "Second",
  ]);
});

Deno.test("self-closing elements and attributes are read", () => {
  const strand = findElement(XML, "Na-strand")!;
  assert.equal(strand.contentStart, strand.end);
  assert.equal(attribute(XML, strand, "value"), "minus");
  assert.equal(attribute(XML, findElement(XML, "Gene-commentary_type")!, "value"), "comment");
});

Deno.test("indexIn never reports a match at or past its bound", () => {
  assert.equal(indexIn("abcabc", "c", 0, 6), 2);
  assert.equal(indexIn("abcabc", "c", 3, 5), -1);
  assert.equal(indexIn("abcabc", "bc", 3, 5), 4, "a match starting before the bound counts");
  assert.equal(indexIn("abc", "a", 2, 1), -1);
  assert.equal(leafText(XML, "Gene-commentary_heading", 0, 10), "");
});

Deno.test("decodeEntities handles named, decimal and hex references", () => {
  assert.equal(
    decodeEntities("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#946; &#x3B2; &bogus;"),
    `a & b <c> "d" 'e' β β &bogus;`,
  );
});

Deno.test("assertComplete accepts a closed root and rejects a cut-off body", () => {
  assertComplete("<a><b/></a>\n", ["a"], "u");
  assertComplete("<x/><eFetchResult></eFetchResult>", ["Entrezgene-Set", "eFetchResult"], "u");
  assert.throws(
    () => assertComplete("<a><b/>", ["a"], "u"),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse",
  );
});
