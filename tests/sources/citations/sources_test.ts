/**
 * The other three mappings into CSL-JSON on real records: OpenAlex works (the commonmeta corpus, one per
 * type), an arXiv entry, and a PubMed Bookshelf book; and what BibTeX and RIS make of a preprint.
 */
import assert from "node:assert/strict";
import { parseArxivFeed } from "../../../src/sources/arxiv/parse_atom.ts";
import { formatBibtex } from "../../../src/sources/citations/bibtex.ts";
import { arxivToCsl } from "../../../src/sources/citations/from/arxiv.ts";
import { openalexToCsl } from "../../../src/sources/citations/from/openalex.ts";
import { pubmedToCsl } from "../../../src/sources/citations/from/pubmed.ts";
import { formatRis } from "../../../src/sources/citations/ris.ts";
import { parseWork } from "../../../src/sources/openalex/parse_work.ts";
import { fixture } from "../../helpers/runtime.ts";
import { article } from "../ncbi/pubmed/fixtures.ts";

const openalex = (name: string) => openalexToCsl(parseWork(JSON.parse(fixture(`openalex/${name}`))));

Deno.test("OpenAlex types map by the same table: book, conference paper, dataset, preprint, review", () => {
  assert.equal(openalex("commonmeta__work_book_cambridge.json").type, "book");
  assert.equal(openalex("commonmeta__work_conference_paper_acm.json").type, "paper-conference");
  assert.equal(openalex("commonmeta__work_dataset_pdb4hhb.json").type, "dataset");
  const preprint = openalex("commonmeta__work_preprint_biorxiv.json");
  assert.equal(preprint.type, "article");
  assert.equal(preprint.genre, "preprint");
  assert.equal(openalex("commonmeta__work_peer_review_elife.json").type, "review");
  const acm = openalex("commonmeta__work_conference_paper_acm.json");
  assert.equal(acm.page, "1386-1399");
  assert.equal(acm.custom?.openalex, "W3174427814");
  assert.match(acm.id, /^Pandey2021_W3174427814$/);
});

Deno.test("an arXiv entry is a preprint: number arXiv:id, publisher arXiv, @misc with eprint, RIS UNPB", () => {
  const [entry] = parseArxivFeed(fixture("arxiv/api/arxivpy__id_2104.12255v1.atom.xml"), "fixture").entries;
  const item = arxivToCsl(entry);
  assert.equal(item.type, "article");
  assert.equal(item.genre, "preprint");
  assert.equal(item.number, `arXiv:${entry.id}`);
  assert.equal(item.publisher, "arXiv");
  assert.equal(item.custom?.arxiv, entry.id);
  const bib = formatBibtex(item);
  assert.match(bib, /^@misc\{/);
  assert.match(
    bib,
    new RegExp(`\\n {2}eprint = \\{${entry.id.replace(".", "\\.")}\\},\\n {2}archiveprefix = \\{arXiv\\}\\n`),
  );
  const ris = formatRis(item).split("\n");
  assert.equal(ris[0], "TY  - UNPB");
  assert.ok(ris.includes(`M1  - arXiv:${entry.id}`));
  assert.ok(ris.includes("M3  - preprint"));
});

Deno.test("a PubMed Bookshelf book keeps publisher, place and ISBN; a journal article its ids", () => {
  const book = pubmedToCsl(article("hawc__efetch_book_whole_book_26468569.xml", "26468569"));
  assert.equal(book.type, "book");
  assert.equal(book.publisher, "National Academies Press (US)");
  assert.equal(book["publisher-place"], "Washington (DC)");
  assert.equal(book.ISBN, "9780309376662");
  const runners = pubmedToCsl(article("biopython__pubmed6.xml", "30108519"));
  assert.equal(runners.PMID, "30108519");
  assert.equal(runners.PMCID, "PMC6079548");
  assert.equal(runners["container-title-short"], "Front Physiol");
  assert.equal(runners.URL, undefined, "a DOI is the link; no second URL");
});
