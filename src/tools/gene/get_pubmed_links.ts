/**
 * get_pubmed_links: PubMed articles linked to a gene (ELink gene_pubmed), as PMID CURIEs that the
 * PubMed tools accept directly. ELink returns the whole list in one response, which is cached, so
 * further pages cost no request.
 */
import { z } from "zod";
import { ToolError } from "../../core/errors.ts";
import { cursorBinding, cursorInput, decodeCursor, makePage, paginationEnvelope } from "../../core/envelope.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchPubmedLinks } from "../../sources/ncbi/gene/client.ts";
import { parseGeneCurie } from "./gene_id.ts";
import { entrezIdInput } from "./schemas.ts";

const input = z.object({
  entrez_id: entrezIdInput,
  limit: z.number().int().min(1).max(10_000).default(100).describe("PMIDs per page, 1–10000 (default 100)"),
  cursor: cursorInput("get_pubmed_links"),
});

const output = paginationEnvelope(
  z.string().regex(/^PMID:\d+$/).describe('PubMed CURIE, e.g. "PMID:12345678"'),
  "PubMed articles",
);

export const getPubmedLinks = defineTool({
  name: "get_pubmed_links",
  title: "PubMed articles about a gene",
  toolset: "gene",
  description: "PubMed articles NCBI links to a gene (ELink gene_pubmed: GeneRIFs, curated and submitted " +
    'citations), as "PMID:<n>" CURIEs in NCBI\'s order with the real total_count; pass them to the PubMed ' +
    "tools (fetchArticleDetails) for titles and abstracts. Takes an NCBIGene CURIE from search_genes. " +
    "A gene without links gives items []. " +
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
    const items = pmids.slice(offset, offset + args.limit).map((pmid) => `PMID:${pmid}`);
    return makePage(items, pmids.length, args.limit, offset, binding);
  },
  render(result) {
    if (result.items.length === 0) return `No PubMed links (total_count ${result.total_count}).`;
    const more = result.next_cursor ? " More: pass next_cursor." : "";
    return `${result.items.length} of ${result.total_count} PubMed articles: ${result.items.join(", ")}.${more}`;
  },
});
