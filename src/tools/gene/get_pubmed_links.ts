/**
 * get_pubmed_links: PubMed articles linked to a gene (ELink gene_pubmed), as PMID CURIEs that the
 * PubMed tools accept directly. ELink returns the whole list in one response, which is cached, so
 * further pages cost no request.
 */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { cursorBinding, cursorInput, decodeCursor, makePage, paginationEnvelope } from "../../core/envelope.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchPubmedLinks } from "../../sources/ncbi/gene/client.ts";
import { parseGeneCurie } from "./gene_id.ts";
import { entrezIdInput } from "./schemas.ts";
import { nextCallLine } from "../../core/next_call.ts";
import { count, textBlock } from "../../render/markdown.ts";
import { offsetPaging } from "../../core/envelope.ts";

/** Characters one PMID CURIE takes in the text ("PMID:12345678, "): the page is sized to the output budget. */
const CHARS_PER_PMID = 16;

const input = z.object({
  entrez_id: entrezIdInput,
  limit: z.number().int().min(1).max(10_000).default(100).describe("PMIDs per page"),
  cursor: cursorInput("get_pubmed_links"),
});

const output = paginationEnvelope(
  z.string().regex(/^PMID:\d+$/).describe('PubMed CURIE, e.g. "PMID:12345678"'),
  "PubMed articles",
);

export const getPubmedLinks = defineTool({
  name: "get_pubmed_links",
  title: "PubMed articles of a gene",
  toolset: "gene",
  description: "PMIDs of PubMed articles linked to a gene, for fetchArticleDetails, with the total; paged. " +
    'Example: {"entrez_id":"NCBIGene:7157","limit":20}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ entrez_id: "NCBIGene:7157", limit: 20 }],
  async run(args, ctx) {
    const geneId = parseGeneCurie(args.entrez_id);
    const binding = await cursorBinding("get_pubmed_links", { entrez_id: args.entrez_id });
    const offset = decodeCursor(args.cursor, binding, "get_pubmed_links");
    const pmids = await fetchPubmedLinks(ctx.upstream, geneId, ctx.signal).catch((error) => {
      throw error instanceof ToolError && error.code === "ENTITY_NOT_FOUND"
        ? new ToolError(
          error.code,
          error.message,
          "Check the id, or call search_genes to find the gene's NCBIGene CURIE.",
          {
            invalidInput: { field: "entrez_id", value: args.entrez_id },
            cause: error,
          },
        )
        : error;
    });
    const limit = Math.min(args.limit, Math.floor((ctx.outputBudget - 1000) / CHARS_PER_PMID));
    const items = pmids.slice(offset, offset + limit).map((pmid) => `PMID:${pmid}`);
    return makePage(items, pmids.length, limit, offset, binding, {
      tool: "get_pubmed_links",
      args: { ...args, limit },
    });
  },
  render: (r) =>
    textBlock(
      `${r.items.length} of ${count(r.total_count, "PubMed article")} linked to the gene (page_size ${r.page_size}).`,
      nextCallLine(r.next, "cursor"),
      r.items.length > 0 && `items: ${r.items.join(", ")}`,
    ),
  // A page the output budget cut goes on after the PMIDs kept (#31).
  paging: offsetPaging({ tool: "get_pubmed_links", path: "items", defining: (a) => ({ entrez_id: a.entrez_id }) }),
});
