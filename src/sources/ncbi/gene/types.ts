/** Records of the NCBI Gene adapter: plain data, no MCP types. */
import type { CrossReferences } from "./cross_references.ts";

/** One ESummary (version 2.0) document of db=gene. */
export interface GeneSummary {
  /** Entrez Gene id, digits only. */
  geneId: string;
  /** Official symbol (`Name`), e.g. "TP53". */
  symbol: string;
  /** Full name (`Description`), e.g. "tumor protein p53". */
  name: string;
  /** Other symbols the gene is known by (`OtherAliases`). */
  aliases: string[];
  /** Product names (`OtherDesignations`), the preferred one first. */
  designations: string[];
  organism: string;
  taxonId: string;
  chromosome: string;
  mapLocation: string;
  summary: string;
  /** 0 live, 1 replaced (see currentId), 2 discontinued. */
  status: string;
  currentId?: string;
}

export interface GenomicLocation {
  /** The assembly the coordinates refer to, from NCBI's heading, e.g. "GRCh38.p2". */
  assembly: string;
  /** Versioned RefSeq accession of the chromosome or contig, e.g. "NC_000017.11". */
  accession: string;
  /** 1-based, inclusive. */
  start: number;
  end: number;
  strand: "plus" | "minus" | "unknown";
}

/** The parts of one EFetch db=gene record that get_gene reports. */
export interface GeneRecord {
  geneId: string;
  symbol: string;
  name: string;
  description: string;
  summary: string;
  mapLocation: string;
  chromosome: string;
  aliases: string[];
  organism: { name: string; taxonId: string };
  /** NCBI gene type, e.g. "protein-coding", "ncRNA", "pseudo", "other". */
  type: string;
  /** "live", "secondary" (replaced by currentId) or "discontinued". */
  status: string;
  currentId?: string;
  genomicLocation?: GenomicLocation;
  crossReferences: CrossReferences;
}
