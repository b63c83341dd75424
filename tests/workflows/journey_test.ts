/**
 * The agent's journey, measured in whole workflows (#21): each walk runs the calls a model makes for one
 * research task through MCP against the mock upstream, follows the ids each answer hands on, and counts the
 * characters of text the model reads. A bound per workflow keeps a blow-up (a tool that answers with far
 * more than the task needs) from coming back unnoticed.
 *
 * Characters read before #21 → after (same calls, mock upstream): literature review 37,930 → 38,785 (listings
 * now carry abstracts; the full-text page is cut to the budget); gene brief 15,569 → 15,699; compound dossier
 * 4,189 → 4,350; arXiv category to listing 40,313 → 36,627; PDF digest 16,360 → 16,360; id conversion
 * 40,084 → 30,984.
 *
 * Before #34 → after: literature review 38,785 → 38,785; gene brief 15,699 → 13,727 (institutions written once);
 * compound dossier 4,350 → 4,418 (target genes as NCBIGene:5742, the id get_gene takes); arXiv category to
 * listing 36,627 → 36,627; PDF digest 11,669 → 9,687 (windows of at most context_length); PDF question 3,825 →
 * 3,706 (body text first); paper without open full text 14,730 → 11,619 (sources once, no request URLs);
 * id conversion 30,984 → 29,012.
 *
 * #37 (new walks, printed by `deno test -P=test tests/workflows/journey_test.ts`): one search over every source to
 * full text 5,846; author to works to export 3,801.
 */
import assert from "node:assert/strict";
import { DEFAULT_OUTPUT_MAX_CHARS } from "../../src/core/output_budget.ts";
import { type CallResult, type ToolHarness, withTools } from "../helpers/tool_harness.ts";

type Args = Record<string, unknown>;

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

/** One workflow: the calls in order, each able to read the answers before it. */
interface Walk {
  name: string;
  toolsets: string;
  /** Characters of text the model may read over the whole walk. */
  bound: number;
  steps: ((answers: CallResult[]) => [string, Args])[];
}

const data = (r: CallResult) => r.structuredContent as Record<string, unknown>;
const text = (r: CallResult) => r.content.map((c) => c.text ?? "").join("");

const WALKS: Walk[] = [
  {
    name: "literature review",
    toolsets: "papers,pubmed",
    bound: 44_000,
    steps: [
      () => ["search_papers", { query: "english language africa", source: "openalex", sort: "citations", count: 15 }],
      () => ["search_papers", { query: "testing", source: "arxiv", sort: "date", count: 10 }],
      () => ["searchPubMedArticles", { queryTerm: "cancer", maxResults: 10, fetchBriefSummaries: 10 }],
      () => ["fetch_content", { source: "arxiv", id: "2501.11120v1" }],
    ],
  },
  {
    name: "gene brief",
    toolsets: "gene,pubmed",
    bound: 18_000,
    steps: [
      () => ["search_genes", { query: "TP53", organism: "human" }],
      ([found]) => ["get_gene", { entrez_id: (data(found).items as { id: string }[])[0].id }],
      ([found]) => ["get_pubmed_links", { entrez_id: (data(found).items as { id: string }[])[0].id, limit: 20 }],
      () => ["fetchArticleDetails", { pmids: ["27797938", "30108519", "34843274", "19304878"] }],
    ],
  },
  {
    name: "compound dossier",
    toolsets: "pubchem,pubmed",
    bound: 6_000,
    steps: [
      () => ["search_compound_by_identifier", { identifierType: "name", identifier: "aspirin" }],
      ([found]) => [
        "fetch_compound_properties",
        {
          cids: [(data(found).cids as number[])[0]],
          properties: ["MolecularFormula", "MolecularWeight", "IUPACName", "SMILES", "InChIKey", "XLogP", "TPSA"],
        },
      ],
      ([found]) => ["fetch_compound_safety", { cid: (data(found).cids as number[])[0] }],
      ([found]) => ["fetch_compound_bioactivity", { cid: (data(found).cids as number[])[0] }],
      ([found]) => ["fetch_compound_xrefs", { cid: (data(found).cids as number[])[0], xrefTypes: ["PubMedID", "RN"] }],
      () => ["searchPubMedArticles", { queryTerm: "aspirin", maxResults: 5, fetchBriefSummaries: 5 }],
    ],
  },
  {
    name: "arXiv category to listing",
    toolsets: "papers",
    bound: 42_000,
    steps: [
      () => ["list_categories", { source: "arxiv", query: "cs." }],
      () => ["fetch_latest", { source: "arxiv", category: "cs.LG", count: 10 }],
      () => ["fetch_content", { source: "arxiv", id: "2501.11120v1" }],
    ],
  },
  {
    name: "PDF digest",
    toolsets: "pdf",
    bound: 24_000,
    steps: [
      () => ["list_pdfs", {}],
      () => ["search_pdf", { pdf_name: "dvt_prophylaxis_review", query: "heparin", topk: 8 }],
    ],
  },
  {
    name: "PDF question",
    toolsets: "pdf",
    bound: 8_000,
    steps: [
      () => ["search_pdf", {
        pdf_name: "dvt_prophylaxis_review",
        query: "What is the recommended heparin dose for DVT prophylaxis in trauma patients?",
        context_length: 600,
        topk: 5,
      }],
    ],
  },
  {
    name: "paper without open full text",
    toolsets: "papers,pubmed",
    bound: 12_000,
    steps: [
      () => ["convert_article_ids", { ids: ["27797938", "30108519"] }],
      () => ["fetchArticleDetails", { pmids: ["27797938", "30108519"] }],
      () => ["fetch_content", { source: "pubmed", id: "27797938" }],
    ],
  },
  {
    name: "id conversion",
    toolsets: "papers,pubmed",
    bound: 36_000,
    steps: [
      () => ["convert_article_ids", { ids: ["22416237", "PMC8435807", "10.3389/fpsyt.2012.00018"] }],
      () => ["fetchArticleDetails", { pmids: ["27797938"] }],
      () => ["fetch_content", { source: "pubmed", id: "PMC3299399" }],
    ],
  },
  {
    // #37: one search over every source, then the full text of a merged hit, by its first source and id.
    name: "one search over every source to full text",
    toolsets: "papers",
    bound: 12_000,
    steps: [
      () => ["search_papers", { query: "malaria vaccine", source: "all", count: 10 }],
      ([found]) => {
        const hit = (data(found).papers as { id: string; sources: string[] }[])
          .find((p) => p.sources[0] === "europepmc")!;
        return ["fetch_content", { source: hit.sources[0], id: hit.id }];
      },
    ],
  },
  {
    // #37: an author by name and affiliation, their most cited works, those works exported.
    name: "author to works to export",
    toolsets: "papers",
    bound: 8_000,
    steps: [
      () => ["find_author", { name: "Tokuzawa", affiliation: "Kyushu University" }],
      ([found]) => [
        "search_papers",
        { source: "openalex", author: (data(found).authors as { id: string }[])[0].id, sort: "citations", count: 5 },
      ],
      ([, works]) => [
        "export_citations",
        { ids: (data(works).papers as { id: string }[]).slice(0, 3).map((p) => p.id), styles: ["bibtex"] },
      ],
    ],
  },
];

async function walk(h: ToolHarness, w: Walk): Promise<number> {
  const answers: CallResult[] = [];
  let read = 0;
  for (const step of w.steps) {
    const [tool, args] = step(answers);
    const answer = await h.call(tool, args);
    // A domain answer such as "PubChem has no GHS data" is part of the journey; a rejected call is a dead end.
    const code = answer.isError ? (data(answer).error as { code: string }).code : undefined;
    assert.ok(
      code !== "INVALID_INPUT" && code !== "INTERNAL",
      `${w.name}: ${tool} ${JSON.stringify(args)}: ${text(answer)}`,
    );
    answers.push(answer);
    read += text(answer).length;
    assert.ok(text(answer).length <= DEFAULT_OUTPUT_MAX_CHARS, `${tool} answered over the output budget`);
  }
  return read;
}

for (const w of WALKS) {
  Deno.test(`the ${w.name} workflow reads at most ${w.bound} characters`, async () => {
    await withTools({ env: { SCIENCE_MCP_TOOLSETS: w.toolsets, PDF_ROOT }, driveClock: true }, async (h) => {
      const read = await walk(h, w);
      console.log(`${w.name}: ${read} characters read`);
      assert.ok(read <= w.bound, `${w.name} read ${read} characters, over its bound of ${w.bound}`);
    });
  });
}
