import assert from "node:assert/strict";
import { ToolError, UpstreamError } from "../../../../src/core/errors.ts";
import { parseGeneSummaries } from "../../../../src/sources/ncbi/gene/parse_esummary_gene.ts";
import { fixture } from "../../../helpers/runtime.ts";

const URL_ = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esummary.fcgi?db=gene&id=21803&version=2.0";

Deno.test("parseGeneSummaries reads the recorded version 2.0 gene summary (mouse Tgfb1)", () => {
  const [tgfb1, ...rest] = parseGeneSummaries(fixture("ncbi/gene/eutilsjson__esummary.gene.xml"), URL_);
  assert.equal(rest.length, 0);
  assert.deepEqual(tgfb1, {
    geneId: "21803",
    symbol: "Tgfb1",
    name: "transforming growth factor, beta 1",
    aliases: ["TGF-beta1", "TGFbeta1", "Tgfb", "Tgfb-1"],
    designations: [
      "TGF-beta 1",
      "TGF-beta-1",
      "regulatory protein",
      "transforming growth factor beta-1",
      "transforming growth factor-beta 1",
    ],
    organism: "Mus musculus",
    taxonId: "10090",
    chromosome: "7",
    mapLocation: "7 6.5 cM",
    summary: "",
    status: "0",
  });
});

Deno.test("parseGeneSummaries keeps NCBI's document order and decodes entities", () => {
  const docs = parseGeneSummaries(fixture("ncbi/gene/esummary_gene.built.xml"), URL_);
  assert.equal(docs.length, 40);
  assert.deepEqual(docs.slice(0, 3).map((d) => d.geneId), ["672", "12189", "497672"]);
  const tp53 = docs.find((d) => d.geneId === "7157")!;
  assert.equal(tp53.symbol, "TP53");
  assert.ok(tp53.designations.includes("p53 tumor suppressor"));
  assert.match(tp53.summary, /tumor suppressor protein/);
  const tp63 = docs.find((d) => d.geneId === "8626")!;
  assert.ok(tp63.aliases.includes("B(p51A)"));
});

Deno.test("parseGeneSummaries drops a document with a per-uid error and keeps the rest", () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><eSummaryResult><DocumentSummarySet status="OK">
    <DocumentSummary uid="999999999"><error>cannot get document summary</error></DocumentSummary>
    <DocumentSummary uid="7157"><Name>TP53</Name><Description>tumor protein p53</Description>
    <Organism><ScientificName>Homo sapiens</ScientificName><CommonName>human</CommonName><TaxID>9606</TaxID></Organism>
    <Status>0</Status><CurrentID>0</CurrentID></DocumentSummary></DocumentSummarySet></eSummaryResult>`;
  const docs = parseGeneSummaries(xml, URL_);
  assert.deepEqual(docs.map((d) => d.geneId), ["7157"]);
  assert.equal(docs[0].organism, "Homo sapiens", "the nested <Organism> layout is read too");
  assert.equal(docs[0].taxonId, "9606");
});

Deno.test("parseGeneSummaries turns a fatal ESummary <ERROR> into UPSTREAM_ERROR", () => {
  assert.throws(
    () => parseGeneSummaries(fixture("ncbi/gene/eutilsjson__esummary.error.xml"), URL_),
    (e: unknown) => e instanceof ToolError && e.code === "UPSTREAM_ERROR" && /Invalid db name/.test(e.message),
  );
});

Deno.test("parseGeneSummaries rejects truncated XML as an upstream parse error instead of returning fewer genes", () => {
  assert.throws(
    () => parseGeneSummaries('<eSummaryResult><DocumentSummarySet><DocumentSummary uid="1"><Name>A</Name>', URL_),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse",
  );
});
