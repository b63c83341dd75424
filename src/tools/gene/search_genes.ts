/**
 * search_genes: the "fuzzy" end of Fuzzy-to-Fact. ESearch db=gene for one page of ids, ESummary for
 * that page, each candidate scored (score.ts), the page ranked by score.
 *
 * Ranking and pagination: pages are NCBI's relevance order cut at [offset, offset + page_size), and each
 * page is ranked by score. Ranking the whole result set would need a summary of every hit ("tumor
 * suppressor" has thousands) and would make cursors depend on data fetched later; NCBI's order already
 * puts symbol matches near the top, and the score is absolute, so scores compare across pages.
 */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { cursorBinding, cursorInput, decodeCursor, makePage, paginationEnvelope } from "../../core/envelope.ts";
import { nextCallLine } from "../../core/next_call.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchGeneSummaries, searchGeneIds } from "../../sources/ncbi/gene/client.ts";
import { organismNotApplied, resolveOrganism } from "../../sources/ncbi/gene/organism.ts";
import { firstSentence } from "../../sources/ncbi/gene/parse_efetch_gene.ts";
import { rankByScore, scoreGene } from "../../sources/ncbi/gene/score.ts";
import type { GeneSummary } from "../../sources/ncbi/gene/types.ts";
import { geneCandidateSchema } from "./schemas.ts";
import { count, recordSection, textBlock } from "../../render/markdown.ts";
import { offsetPaging } from "../../core/envelope.ts";

const input = z.object({
  query: z.string().trim().min(1).max(500).describe("e.g. BRCA1, p53, tumor suppressor, BRCA1[sym]"),
  organism: z.string().trim().min(1).max(100).optional().describe("e.g. human, Mus musculus, 9606"),
  page_size: z.number().int().min(1).max(500).default(50).describe("Candidates per page"),
  cursor: cursorInput("search_genes"),
});

const output = paginationEnvelope(geneCandidateSchema, "genes");

export const searchGenes = defineTool({
  name: "search_genes",
  title: "Search NCBI Gene",
  toolset: "gene",
  description: "First step for a gene name: NCBI genes by symbol, alias, name or text, scored, with NCBIGene ids for " +
    "get_gene and get_pubmed_links; paged. Example: " +
    '{"query":"BRCA1","organism":"human"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ query: "BRCA1", organism: "human" }, { query: "tumor suppressor", organism: "human", page_size: 20 }],
  async run(args, ctx) {
    assertBalanced(args.query);
    const binding = await cursorBinding("search_genes", { query: args.query, organism: args.organism });
    const offset = decodeCursor(args.cursor, binding, "search_genes");
    const organism = args.organism ? await resolveOrganism(ctx.upstream, args.organism, ctx.signal) : undefined;
    const term = [`(${args.query})`, organism?.filter, "alive[prop]"].filter(Boolean).join(" AND ");
    const found = await searchGeneIds(ctx.upstream, { term, offset, limit: args.page_size, signal: ctx.signal })
      .catch((error) => {
        throw rejectedQuery(error, args.query);
      });
    const dropped = organism && organismNotApplied(args.organism!, found.warnings);
    if (dropped) throw dropped;
    const summaries = await fetchGeneSummaries(ctx.upstream, found.ids, ctx.signal);
    const items = rankByScore(summaries.map((s) => candidate(args.query, s)));
    return makePage(items, found.count, args.page_size, offset, binding, { tool: "search_genes", args });
  },
  render: (r) =>
    textBlock(
      `${r.items.length} of ${count(r.total_count, "gene")} (page_size ${r.page_size}), ranked by score.`,
      r.items.flatMap((g) => recordSection(`${g.id} ${g.symbol}: ${g.name}`, g, { omit: ["id", "symbol", "name"] })),
      r.total_count === 0 &&
        "hint: no gene matched. Try the official symbol (TP53), an alias or the full name, another spelling, " +
          "or another organism (or none).",
      "",
      nextCallLine(r.next, "cursor"),
    ),
  // A page the output budget cut goes on after the genes kept (#31).
  paging: offsetPaging({
    tool: "search_genes",
    path: "items",
    defining: (a) => ({ query: a.query, organism: a.organism }),
  }),
});

function candidate(query: string, s: GeneSummary) {
  return {
    id: `NCBIGene:${s.geneId}`,
    symbol: s.symbol,
    name: s.name,
    description: s.designations[0] ?? (s.summary ? firstSentence(s.summary) : ""),
    organism: s.organism,
    score: scoreGene(query, s),
  };
}

/**
 * The query is wrapped in parentheses and ANDed with the organism filter; an unbalanced parenthesis or
 * quote would let it swallow the filter, so it is refused before any request.
 */
function assertBalanced(query: string): void {
  let depth = 0;
  for (const char of query.replace(/"[^"]*"/g, "")) {
    depth += char === "(" ? 1 : char === ")" ? -1 : 0;
    if (depth < 0) break;
  }
  const quotes = (query.match(/"/g) ?? []).length;
  if (depth === 0 && quotes % 2 === 0) return;
  throw new ToolError(
    "INVALID_INPUT",
    "Invalid input 'query': unbalanced parentheses or quotes.",
    'Close every "(" and quote in the search_genes query, or search plain words ("TP53", "tumor suppressor").',
    { invalidInput: { field: "query", value: query } },
  );
}

/** NCBI refusing the query (a fatal ESearch `<ERROR>`) is the caller's to fix: say how, naming the tool. */
function rejectedQuery(error: unknown, query: string): unknown {
  if (!(error instanceof ToolError) || error.code !== "INVALID_INPUT") return error;
  return new ToolError(
    "INVALID_INPUT",
    error.message,
    'Simplify the search_genes query: a symbol ("TP53"), a name or plain words; check quotes, brackets and ' +
      "field tags such as [sym].",
    { invalidInput: { field: "query", value: query }, cause: error },
  );
}
