/** Output shapes shared by the gene tools. */
import { z } from "../../core/zod.ts";
import { crossReferencesSchema } from "../../sources/ncbi/gene/cross_references.ts";

export const entrezIdInput = z.string().min(1).max(100).describe(
  "NCBIGene:<digits> from search_genes, e.g. NCBIGene:7157",
);

export const geneCandidateSchema = z.object({
  id: z.string().describe('NCBI Gene CURIE for get_gene / get_pubmed_links, e.g. "NCBIGene:672"'),
  symbol: z.string().describe("Official gene symbol"),
  name: z.string().describe("Full gene name"),
  description: z.string().describe(
    "What the product is: NCBI's preferred product name, else the summary's first sentence",
  ),
  organism: z.string().describe("Scientific name of the organism"),
  score: z.number().min(0).max(1).describe(
    "Relevance in [0,1]: 1 exact symbol, 0.95 symbol ignoring case, 0.85 alias, 0.6–0.8 symbol prefix, ≤0.59 word matches",
  ),
});

export const genomicLocationSchema = z.object({
  assembly: z.string().describe('Assembly of the coordinates, e.g. "GRCh38.p2"'),
  accession: z.string().describe('Versioned RefSeq chromosome accession, e.g. "NC_000017.11"'),
  start: z.number().int().describe("First base, 1-based"),
  end: z.number().int().describe("Last base, 1-based inclusive"),
  strand: z.enum(["plus", "minus", "unknown"]),
});

export const geneEntitySchema = z.object({
  id: z.string().describe('NCBI Gene CURIE, e.g. "NCBIGene:7157"'),
  symbol: z.string(),
  name: z.string().describe("Full gene name"),
  description: z.string().describe("Product description (protein name), empty for genes without one"),
  summary: z.string().describe("RefSeq/NCBI functional summary; empty when NCBI has none"),
  map_location: z.string().describe('Cytogenetic band, e.g. "17p13.1"; empty when unknown'),
  chromosome: z.string().describe("Chromosome name; empty when unknown"),
  aliases: z.array(z.string()).describe("Other symbols of the gene"),
  organism: z.object({ name: z.string(), taxon_id: z.string().describe('NCBI Taxonomy id, e.g. "9606"') }),
  type: z.string().describe('NCBI gene type, e.g. "protein-coding", "ncRNA", "pseudo"'),
  genomic_location: genomicLocationSchema.optional().describe("Placement on the reference assembly, when annotated"),
  cross_references: crossReferencesSchema,
});
