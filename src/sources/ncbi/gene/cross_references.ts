/**
 * The one registry of gene cross-references: exactly 22 snake_case keys, each with one type. A key the
 * record has no reference for is omitted, never null, so `"uniprot" in xrefs` answers "does it have one".
 *
 * Sources in an EFetch db=gene record: the gene's own database tags (`Gene-ref_db/Dbtag`, e.g. HGNC, MIM,
 * Ensembl, MGI), UniProtKB tags on its products, and RefSeq accessions of its products (by prefix).
 */
import { z } from "../../../core/zod.ts";
import { currentVersions, type RefSeqSighting } from "./refseq_current.ts";
import { orderUniprot } from "./uniprot_order.ts";

interface XrefSpec {
  /** Dbtag_db names NCBI uses for this database, compared case-insensitively. */
  dbtags: string[];
  multiple: boolean;
  description: string;
  /** Turns the tag value into the form the database itself writes (e.g. adds "HGNC:"). */
  normalize?: (value: string) => string | undefined;
}

const prefixed = (prefix: string) => (value: string) => value.startsWith(prefix) ? value : `${prefix}${value}`;

/** Key → where it comes from and how it is written. Order is the order keys appear in outputs. */
export const XREF_REGISTRY = {
  hgnc: { dbtags: ["HGNC"], multiple: false, description: "HGNC id, e.g. HGNC:11998", normalize: prefixed("HGNC:") },
  omim: { dbtags: ["MIM"], multiple: true, description: 'OMIM gene entry numbers, e.g. ["191170"]' },
  ensembl_gene: {
    dbtags: ["Ensembl"],
    multiple: true,
    description: 'Ensembl gene ids, e.g. ["ENSG00000141510"]',
    normalize: (v) => /^ENS[A-Z]*G\d+(\.\d+)?$/.test(v) ? v : undefined,
  },
  alliance_genome: {
    dbtags: ["AllianceGenome"],
    multiple: false,
    description: "Alliance of Genome Resources id, e.g. HGNC:11998",
  },
  mgi: {
    dbtags: ["MGI"],
    multiple: false,
    description: "Mouse Genome Informatics id, e.g. MGI:98834",
    normalize: prefixed("MGI:"),
  },
  rgd: {
    dbtags: ["RGD"],
    multiple: false,
    description: "Rat Genome Database id, e.g. RGD:3889",
    normalize: prefixed("RGD:"),
  },
  zfin: { dbtags: ["ZFIN"], multiple: false, description: "ZFIN gene id, e.g. ZDB-GENE-990415-270" },
  flybase: { dbtags: ["FLYBASE", "FlyBase"], multiple: false, description: "FlyBase gene id, e.g. FBgn0003721" },
  wormbase: { dbtags: ["WormBase"], multiple: false, description: "WormBase gene id, e.g. WBGene00000467" },
  sgd: { dbtags: ["SGD"], multiple: false, description: "Saccharomyces Genome Database id, e.g. S000001855" },
  xenbase: { dbtags: ["Xenbase"], multiple: false, description: "Xenbase gene id, e.g. XB-GENE-478054" },
  vgnc: {
    dbtags: ["VGNC"],
    multiple: false,
    description: "Vertebrate Gene Nomenclature Committee id",
    normalize: prefixed("VGNC:"),
  },
  mirbase: { dbtags: ["miRBase"], multiple: true, description: 'miRBase stem-loop accessions, e.g. ["MI0000060"]' },
  imgt: { dbtags: ["IMGT/GENE-DB"], multiple: false, description: "IMGT/GENE-DB gene name, e.g. IGHG1" },
  pombase: { dbtags: ["PomBase"], multiple: false, description: "PomBase systematic id, e.g. SPAC1F7.05" },
  tair: { dbtags: ["TAIR", "Araport"], multiple: false, description: "Arabidopsis locus id, e.g. AT1G01010" },
  cgnc: {
    dbtags: ["CGNC"],
    multiple: false,
    description: "Chicken Gene Nomenclature Consortium id",
    normalize: prefixed("CGNC:"),
  },
  dictybase: { dbtags: ["dictyBase"], multiple: false, description: "dictyBase gene id, e.g. DDB_G0267178" },
  uniprot: {
    dbtags: [],
    multiple: true,
    description: 'UniProtKB accessions of the products: primary reviewed (Swiss-Prot) first, e.g. ["P04637"]',
  },
  refseq_mrna: {
    dbtags: [],
    multiple: true,
    description: 'Current RefSeq transcripts (NM_, NR_, then model XM_, XR_), e.g. ["NM_000546.6"]',
  },
  refseq_protein: {
    dbtags: [],
    multiple: true,
    description: 'Versioned RefSeq proteins (NP_, then model XP_, YP_), e.g. ["NP_000537.3"]',
  },
  refseq_gene: { dbtags: [], multiple: true, description: 'RefSeqGene genomic accessions (NG_), e.g. ["NG_017013.2"]' },
} as const satisfies Record<string, XrefSpec>;

export type XrefKey = keyof typeof XREF_REGISTRY;
export const XREF_KEYS = Object.keys(XREF_REGISTRY) as XrefKey[];

export const crossReferencesSchema = z.strictObject(
  Object.fromEntries(XREF_KEYS.map((key) => {
    const spec: XrefSpec = XREF_REGISTRY[key];
    const type = spec.multiple ? z.array(z.string()).min(1) : z.string().min(1);
    return [key, type.optional().describe(spec.description)];
  })) as { [K in XrefKey]: z.ZodOptional<z.ZodString | z.ZodArray<z.ZodString>> },
).describe("Identifiers of this gene in other databases; keys without a reference are omitted");

export type CrossReferences = {
  [K in XrefKey]?: (typeof XREF_REGISTRY)[K]["multiple"] extends true ? string[] : string;
};

export interface Dbtag {
  db: string;
  value: string;
}

export interface ProductRefs {
  /** Versioned accessions of the gene's RefSeq products, in record order (duplicates allowed). */
  refseq: RefSeqSighting[];
  /** UniProtKB tags of the products (db "UniProtKB/Swiss-Prot" or "UniProtKB/TrEMBL"). */
  uniprot: Dbtag[];
  /** Accessions of the UniProt protein entries listed as products (Related Sequences): primary accessions. */
  uniprotEntries: Set<string>;
}

const BY_DBTAG = new Map<string, XrefKey>(
  XREF_KEYS.flatMap((key) => (XREF_REGISTRY[key] as XrefSpec).dbtags.map((db) => [db.toLowerCase(), key])),
);

/** Builds the cross-reference object from the gene's tags and its product references. */
export function buildCrossReferences(geneTags: Dbtag[], products: ProductRefs): CrossReferences {
  const lists = new Map<XrefKey, string[]>();
  const add = (key: XrefKey, value: string) => {
    const list = lists.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    lists.set(key, list);
  };
  for (const tag of geneTags) {
    const key = BY_DBTAG.get(tag.db.toLowerCase());
    if (!key) continue;
    const spec: XrefSpec = XREF_REGISTRY[key];
    const value = tag.value.trim() && (spec.normalize ? spec.normalize(tag.value.trim()) : tag.value.trim());
    if (value) add(key, value);
  }
  for (const accession of orderUniprot(products.uniprot, products.uniprotEntries)) add("uniprot", accession);
  for (const accession of sortRefSeq(currentVersions(products.refseq))) {
    const key = refseqKey(accession);
    if (key) add(key, accession);
  }
  const out: Record<string, string | string[]> = {};
  for (const key of XREF_KEYS) {
    const list = lists.get(key);
    if (!list?.length) continue;
    out[key] = (XREF_REGISTRY[key] as XrefSpec).multiple ? list : list[0];
  }
  return out as CrossReferences;
}

/** Which registry key a RefSeq accession belongs to, by its documented prefix; undefined for contigs. */
export function refseqKey(accession: string): "refseq_mrna" | "refseq_protein" | "refseq_gene" | undefined {
  const prefix = accession.slice(0, 3);
  if (["NM_", "NR_", "XM_", "XR_"].includes(prefix)) return "refseq_mrna";
  if (["NP_", "XP_", "YP_", "AP_"].includes(prefix)) return "refseq_protein";
  if (prefix === "NG_") return "refseq_gene";
  return undefined;
}

/** Curated (N*) before model (X*) accessions; otherwise record order. */
function sortRefSeq(accessions: string[]): string[] {
  const curated = accessions.filter((a) => !a.startsWith("X"));
  return [...curated, ...accessions.filter((a) => a.startsWith("X"))];
}
