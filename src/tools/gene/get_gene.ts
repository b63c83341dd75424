/**
 * get_gene: the "fact" end of Fuzzy-to-Fact. One EFetch db=gene (cached a day) gives the full record;
 * only the parts reported here are parsed (see parse_efetch_gene.ts).
 */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchGeneRecord } from "../../sources/ncbi/gene/client.ts";
import type { GeneRecord } from "../../sources/ncbi/gene/types.ts";
import { parseGeneCurie } from "./gene_id.ts";
import { entrezIdInput, geneEntitySchema } from "./schemas.ts";
import { DATA_LINE, recordSection, textBlock } from "../../render/markdown.ts";

const input = z.object({ entrez_id: entrezIdInput });

export const getGene = defineTool({
  name: "get_gene",
  title: "NCBI Gene record",
  toolset: "gene",
  description: "An NCBI Gene record: symbol, name, RefSeq summary, location, aliases, organism, type, coordinates, " +
    "cross-references (HGNC, OMIM, Ensembl, UniProt…). Example: " +
    '{"entrez_id":"NCBIGene:7157"}',
  input,
  output: geneEntitySchema,
  annotations: READS_NETWORK,
  examples: [{ entrez_id: "NCBIGene:7157" }, { entrez_id: "NCBIGene:4747" }],
  async run(args, ctx) {
    const geneId = parseGeneCurie(args.entrez_id);
    const record = await fetchGeneRecord(ctx.upstream, geneId, ctx.signal);
    if (!record) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `NCBI Gene has no record ${args.entrez_id}.`,
        "Check the id, or call search_genes with the gene's symbol or name to find its NCBIGene CURIE.",
        { invalidInput: { field: "entrez_id", value: args.entrez_id } },
      );
    }
    if (record.status === "secondary" && record.currentId) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `${args.entrez_id} was replaced by NCBIGene:${record.currentId}.`,
        `Call get_gene("NCBIGene:${record.currentId}") for the current record.`,
        { invalidInput: { field: "entrez_id", value: args.entrez_id } },
      );
    }
    return toEntity(record);
  },
  render: (g) =>
    textBlock(
      recordSection(`${DATA_LINE}${g.id} ${g.symbol}: ${g.name}`, g, {
        omit: ["id", "symbol", "name"],
        format: {
          organism: (o: typeof g.organism) => `organism: ${o.name} (taxon ${o.taxon_id})`,
          genomic_location: (l: NonNullable<typeof g.genomic_location>) =>
            `genomic_location: ${l.accession}:${l.start}-${l.end}, ${l.strand} strand (${l.assembly})`,
        },
      }),
    ),
});

function toEntity(r: GeneRecord): z.input<typeof geneEntitySchema> {
  return {
    id: `NCBIGene:${r.geneId}`,
    symbol: r.symbol,
    name: r.name,
    description: r.description,
    summary: r.summary,
    map_location: r.mapLocation,
    chromosome: r.chromosome,
    aliases: r.aliases,
    organism: { name: r.organism.name, taxon_id: r.organism.taxonId },
    type: r.type,
    ...(r.genomicLocation ? { genomic_location: r.genomicLocation } : {}),
    cross_references: r.crossReferences,
  };
}
