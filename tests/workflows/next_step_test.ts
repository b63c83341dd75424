/**
 * Every answer names its next step (#34): calls a model really makes that once answered with a bare rule
 * ("expected number"), an empty list, or an id the next tool would refuse. Each row is the call, the fix the
 * answer must name (tool or argument, in one line of its text), and a check that the fix works when followed.
 */
import assert from "node:assert/strict";
import { type CallResult, type ToolHarness, withTools } from "../helpers/tool_harness.ts";

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

type Args = Record<string, unknown>;

interface Row {
  name: string;
  toolsets: string;
  call: [string, Args];
  /** The fix the text must name, on one line. */
  fix: RegExp;
  /** Follows the fix, or checks what the answer now carries. */
  follow?: (answer: CallResult, h: ToolHarness) => Promise<void> | void;
}

const text = (r: CallResult) => r.content.map((c) => c.text).join("");
const data = (r: CallResult) => r.structuredContent as Record<string, unknown>;
const code = (r: CallResult) => r.isError ? (data(r).error as { code: string }).code : undefined;

/** The `tool {json}` a line of the text names after `prefix`, parsed. */
function namedCall(answer: CallResult, tool: string): Args {
  const line = text(answer).split("\n").find((l) => l.includes(`${tool} {`));
  assert.ok(line, `no ${tool} call in: ${text(answer)}`);
  const json = line.slice(line.indexOf(`${tool} {`) + tool.length + 1);
  return JSON.parse(json.slice(0, json.lastIndexOf("}") + 1));
}

const ROWS: Row[] = [
  {
    name: "a compound name where a CID belongs names search_compound_by_identifier",
    toolsets: "pubchem",
    call: ["fetch_compound_bioactivity", { cid: "aspirin" }],
    fix: /search_compound_by_identifier \{"identifierType":"name","identifier":"aspirin"\}/,
    async follow(answer, h) {
      assert.equal(code(answer), "INVALID_INPUT");
      const found = await h.call("search_compound_by_identifier", namedCall(answer, "search_compound_by_identifier"));
      const cid = (data(found).cids as number[])[0];
      assert.equal(code(await h.call("fetch_compound_bioactivity", { cid })), undefined);
    },
  },
  {
    name: "fetch_top_cited takes a year as since, as search_papers.from_date does",
    toolsets: "papers",
    call: ["fetch_top_cited", { concept: "T11636", since: "2020", count: 2 }],
    fix: /^2 papers of \d+/m,
    follow(answer, h) {
      assert.equal(answer.isError, undefined, text(answer));
      const sent = h.requests.filter((r) => r.url.pathname.endsWith("/works")).at(-1)!;
      assert.match(sent.url.searchParams.get("filter") ?? "", /from_publication_date:2020-01-01/);
    },
  },
  {
    name: 'filter "preprint" names the preprint argument',
    toolsets: "papers",
    call: ["search_papers", { query: "malaria", source: "openalex", filter: "preprint" }],
    fix: /preprint:true/,
    async follow(answer, h) {
      assert.equal(code(answer), "INVALID_INPUT");
      for (
        const [source, sent] of [["openalex", /type:preprint/], ["europepmc", /SRC:PPR/], ["arxiv", /all:malaria/]]
      ) {
        const r = await h.call("search_papers", { query: "malaria", source, preprint: true, count: 2 });
        assert.equal(r.isError, undefined, text(r));
        assert.match(data(r).query_sent as string, sent as RegExp, `${source}: ${data(r).query_sent}`);
      }
    },
  },
  {
    name: "a gene search that finds nothing says what to try",
    toolsets: "gene",
    call: ["search_genes", { query: "zzzzgene" }],
    fix: /^hint: .*official symbol.*spelling.*organism/m,
  },
  {
    name: "a misspelt pdf_name keeps file_exists:false and names the nearest PDFs",
    toolsets: "pdf",
    call: ["search_pdf", { pdf_name: "dvt_prophylaxis_reveiw", query: "heparin" }],
    fix: /Nearest names: dvt_prophylaxis_review$/m,
    async follow(answer, h) {
      // The server's own sentence outside the fence, the file names inside it.
      assert.match(
        text(answer),
        /^No PDF of that name in PDF_ROOT\. Call list_pdfs for the names\.\n⟦\nNearest names:/m,
      );
      const out = data(answer);
      assert.deepEqual([out.file_exists, out.query_exists, out.matches], [false, false, []]);
      assert.deepEqual(out.nearest, ["dvt_prophylaxis_review"]);
      const again = await h.call("search_pdf", { pdf_name: (out.nearest as string[])[0], query: "heparin" });
      assert.equal(data(again).file_exists, true);
    },
  },
  {
    name: "a PMID outside PMC is sent to fetchArticleDetails for its DOI",
    toolsets: "papers,pubmed",
    call: ["convert_article_ids", { ids: ["30108519", "PMC8435807"] }],
    fix: /^not in PubMed Central: fetchArticleDetails \{"pmids":\["30108519"\]\} gives the DOI$/m,
    async follow(answer, h) {
      const details = await h.call("fetchArticleDetails", namedCall(answer, "fetchArticleDetails"));
      assert.match(text(details), /^doi: 10\.3389\/fphys\.2018\.01034$/m);
    },
  },
  {
    name: "an arXiv id in convert_article_ids is sent to fetch_content",
    toolsets: "papers",
    call: ["convert_article_ids", { ids: ["2501.11120v1"] }],
    fix: /fetch_content \{"source":"arxiv","id":"2501\.11120v1"\} reads it/,
    async follow(answer, h) {
      const content = await h.call("fetch_content", namedCall(answer, "fetch_content"));
      assert.equal(content.isError, undefined, text(content).slice(0, 300));
    },
  },
  {
    name: "a search of every PDF that finds nothing says how many were searched",
    toolsets: "pdf",
    call: ["search_pdfs", { query: "zzzqqq" }],
    fix: /^## 0 hits; 1 PDF searched/,
    follow(answer) {
      assert.doesNotMatch(text(answer), /0 of 1/);
      assert.equal(data(answer).files_searched, 1);
    },
  },
  {
    name: "bioactivity targets are written as get_gene takes them",
    toolsets: "pubchem,gene",
    call: ["fetch_compound_bioactivity", { cid: 2244, count: 2 }],
    fix: /PTGS1 \(NCBIGene:5742, P23219\)/,
    async follow(answer, h) {
      assert.doesNotMatch(text(answer), /\bgene \d/);
      // The recorded corpus holds no PTGS1 record: NCBI's answer, not a refused id, is what follows.
      const gene = await h.call("get_gene", { entrez_id: text(answer).match(/NCBIGene:\d+/)![0] });
      assert.notEqual(code(gene), "INVALID_INPUT", text(gene));
    },
  },
];

for (const row of ROWS) {
  Deno.test(`next step: ${row.name}`, async () => {
    await withTools({ env: { SCIENCE_MCP_TOOLSETS: row.toolsets, PDF_ROOT }, driveClock: true }, async (h) => {
      const answer = await h.call(...row.call);
      assert.match(text(answer), row.fix, `${row.call[0]} ${JSON.stringify(row.call[1])}:\n${text(answer)}`);
      await row.follow?.(answer, h);
    });
  });
}
