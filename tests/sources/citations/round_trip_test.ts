/**
 * BibTeX and RIS read back by an independent parser (citation-js) give the CSL item they were written from:
 * entry type, container (booktitle / C3), verbatim DOI, article number, pages, volume, issue, publisher,
 * authors, year. Where a format has no word for a CSL type, the test names what citation-js reads instead.
 */
import assert from "node:assert/strict";
import { Cite } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import type { CslItem } from "../../../src/sources/citations/csl.ts";
import { formatBibtex } from "../../../src/sources/citations/bibtex.ts";
import { formatRis } from "../../../src/sources/citations/ris.ts";
import { pubmedToCsl } from "../../../src/sources/citations/from/pubmed.ts";
import { article } from "../ncbi/pubmed/fixtures.ts";
import { crossrefFixtures, goldenCsl } from "./records.ts";

type Parsed = Record<string, unknown> & { author?: { family?: string; given?: string; literal?: string }[] };

/** The CSL type citation-js gives back where BibTeX or RIS has no exact entry type for ours. */
const BIBTEX_TYPE: Partial<Record<CslItem["type"], string>> = { article: "document" };
const RIS_TYPE: Partial<Record<CslItem["type"], string>> = { article: "manuscript" };

async function parse(text: string): Promise<Parsed> {
  const data = (await Cite.async(text)).data as Parsed[];
  assert.equal(data.length, 1, text);
  return data[0];
}

function year(item: CslItem): number | undefined {
  return item.issued?.["date-parts"]?.[0]?.[0];
}

function parsedYear(p: Parsed, key = "issued"): number | undefined {
  const d = p[key] as { "date-parts"?: number[][] } | undefined;
  return d?.["date-parts"]?.[0]?.[0];
}

function plain(s: string | undefined): string | undefined {
  return s?.replace(/<[^>]+>/g, "");
}

/** A name as one string: an organisation is its name whether a parser calls it literal or family. */
function names(list: CslItem["author"] | Parsed["author"]): string[] {
  return (list ?? []).map((n) => n.literal ?? (n.given ? `${n.family}|${n.given}` : n.family ?? ""));
}

const items: [string, CslItem][] = [
  ...crossrefFixtures().map((n): [string, CslItem] => [n, goldenCsl(n)]),
  ["PubMed 30108519", pubmedToCsl(article("biopython__pubmed6.xml", "30108519"))],
  ["PubMed book 26468569", pubmedToCsl(article("hawc__efetch_book_whole_book_26468569.xml", "26468569"))],
];

for (const [name, item] of items) {
  Deno.test(`BibTeX round-trips through citation-js: ${name}`, async () => {
    const p = await parse(formatBibtex(item));
    assert.equal(p.type, BIBTEX_TYPE[item.type] ?? item.type);
    assert.equal(p.id, item.id, "the key");
    assert.equal(p.title, plain(item.title));
    assert.deepEqual(names(p.author), names(item.author));
    assert.equal(p.DOI, item.DOI, "verbatim DOI");
    assert.equal(parsedYear(p), year(item));
    // A preprint's server and a dataset's repository are `howpublished`, which citation-js does not read back.
    if (item.type !== "article" && item.type !== "dataset") {
      assert.equal(p["container-title"], item["container-title"]);
    }
    assert.equal(p.page, item.page);
    assert.equal(p.volume, item.volume);
    assert.equal(p.issue, item.issue);
    if (item.type === "article-journal") assert.equal(p.number, item.number, "article number");
    assert.equal(p.publisher, item.publisher);
    assert.equal(p["publisher-place"], item["publisher-place"]);
    assert.equal(p.PMID, item.PMID);
    assert.equal(p.PMCID, item.PMCID);
  });

  Deno.test(`RIS round-trips through citation-js: ${name}`, async () => {
    const p = await parse(formatRis(item));
    assert.equal(p.type, RIS_TYPE[item.type] ?? item.type);
    assert.equal(p.title, plain(item.title));
    // RIS cannot mark an organisation: one whose name holds a comma is read back as "family, given".
    const expected = names(item.author).map((n, i) =>
      item.author?.[i]?.literal?.includes(",") ? names(p.author)[i] : n
    );
    assert.deepEqual(names(p.author), expected);
    assert.equal(p.DOI, item.DOI);
    assert.equal(parsedYear(p), year(item));
    if (item.type === "paper-conference") {
      assert.equal(p["container-title"], item["container-title"], "proceedings title (C3)");
      assert.equal(p["event-title"] ?? p.event, item["event-title"]);
    } else if (!["article", "report", "book", "dataset"].includes(item.type)) {
      assert.equal(p["container-title"], item["container-title"]);
    }
    if (item.type !== "book") assert.equal(p.page, item.page);
    assert.equal(p.volume, item.volume);
    assert.equal(p.issue, item.issue);
    if (item.type === "article-journal") assert.equal(p.number, item.number, "article number (C7)");
    // RIS has no publisher tag for journal articles (PB is written; citation-js, following the spec, skips it).
    if (item.type !== "article-journal") assert.equal(p.publisher, item.publisher);
  });
}

Deno.test("BibTeX stays injection-safe: text fields escaped, verbatim fields cannot close their braces", async () => {
  const item: CslItem = {
    id: "X2020_1",
    type: "article-journal",
    title: "50% of R&D costs_x $1 #2 {a} \\end",
    author: [{ family: "O'Brien}, title = {pwned" }],
    DOI: "10.1000/a}b{c\\d",
    issued: { "date-parts": [[2020]] },
  };
  const bib = formatBibtex(item);
  assert.match(bib, /\n {2}title = \{\{50\\% of R\\&D costs\\_x \\\$1 \\#2 \\\{a\\\} \\textbackslash\{\}end\}\},\n/);
  assert.match(bib, /\n {2}doi = \{10\.1000\/a%7Db%7Bc%5Cd\}\n/);
  const p = await parse(bib);
  assert.equal(p.title, "50% of R&D costs_x $1 #2 {a} \\end");
  assert.equal(p.DOI, "10.1000/a%7Db%7Bc%5Cd");
  assert.equal(p.author?.length, 1);
  assert.deepEqual(
    Object.keys(p).filter((k) => !k.startsWith("_")).sort(),
    [
      "DOI",
      "author",
      "citation-key",
      "container-title",
      "id",
      "issued",
      "title",
      "type",
    ].filter((k) => k !== "container-title"),
  );
});
