/** gene_brief: what a gene is and does, from NCBI Gene and its PubMed literature. */
import { organisms } from "./completions.ts";
import { call, definePrompt } from "./prompt_def.ts";

export const geneBrief = definePrompt({
  name: "gene_brief",
  title: "Gene brief",
  description: "Resolve a gene in NCBI Gene and write a one-page brief: identity, function, location, aliases " +
    "and the key PubMed papers.",
  toolsets: ["gene", "pubmed"],
  arguments: [
    { name: "gene", description: "Symbol or name, e.g. TP53", required: true },
    { name: "organism", description: "e.g. human, mouse, zebrafish", required: false, complete: organisms },
  ],
  example: { gene: "TP53", organism: "human" },
  render(args) {
    const organism = args.organism?.trim() || "human";
    return [
      `Write a brief on the gene ${args.gene} in ${organism}.`,
      "",
      "Use these tool calls:",
      `1. ${
        call("search_genes", { query: args.gene, organism })
      }; take the best match (say if the symbol is ambiguous).`,
      `2. ${call("get_gene", { entrez_id: "<NCBIGene CURIE from step 1>" })} for the summary, location and aliases.`,
      `3. ${call("get_pubmed_links", { entrez_id: "<same CURIE>", limit: 20 })} for the linked literature.`,
      `4. ${call("fetchArticleDetails", { pmids: ["<up to 5 PMIDs from step 3>"] })} for their abstracts.`,
      "",
      "Write: ## Identity (symbol, full name, NCBIGene id, organism, aliases), ## Location, ## Function, " +
      "## Disease relevance, ## Key papers (PMID, title, year, one line each). Base every statement on the tool " +
      "results and cite PMIDs.",
    ].join("\n");
  },
});
