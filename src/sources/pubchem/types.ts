/**
 * Records the PubChem adapter returns. Numbers are numbers here even where PUG REST sends strings
 * (MolecularWeight, ExactMass): the parsers decide types once, so tools never see both shapes.
 */

/**
 * Compound properties a caller may ask for (the spec's list plus the SMILES names, old and new), each with
 * the kind PubChem computes: text, a fractional number (masses arrive as strings), or an integer count.
 */
export const PROPERTY_KINDS = {
  MolecularFormula: "text",
  MolecularWeight: "float",
  SMILES: "text",
  ConnectivitySMILES: "text",
  CanonicalSMILES: "text",
  IsomericSMILES: "text",
  InChI: "text",
  InChIKey: "text",
  IUPACName: "text",
  Title: "text",
  XLogP: "float",
  ExactMass: "float",
  MonoisotopicMass: "float",
  TPSA: "float",
  Complexity: "float",
  Charge: "int",
  HBondDonorCount: "int",
  HBondAcceptorCount: "int",
  RotatableBondCount: "int",
  HeavyAtomCount: "int",
  CovalentUnitCount: "int",
} as const;
export type CompoundProperty = keyof typeof PROPERTY_KINDS;
export const COMPOUND_PROPERTIES = Object.keys(PROPERTY_KINDS) as [CompoundProperty, ...CompoundProperty[]];

export type TextProperty = { [P in CompoundProperty]: typeof PROPERTY_KINDS[P] extends "text" ? P : never }[
  CompoundProperty
];
export type NumericProperty = Exclude<CompoundProperty, TextProperty>;

/** One compound's properties, keyed by the names the caller asked for. */
export type CompoundProperties =
  & { CID: number }
  & Partial<Record<TextProperty, string>>
  & Partial<Record<NumericProperty, number>>;

/** Cross-reference types of `compound/cid/<cid>/xrefs/<types>`. */
export const XREF_TYPES = ["RegistryID", "RN", "PubMedID", "PatentID", "GeneID", "ProteinGI", "TaxonomyID"] as const;
export type XrefType = typeof XREF_TYPES[number];

export interface SubstanceRecord {
  sid: number;
  sourceName: string;
  sourceId?: string;
  synonyms: string[];
  /** CIDs of the compounds PubChem standardized this substance into. */
  standardizedCids: number[];
  /** The record differs from the expected shape: what differs (the record is read as far as it can be). */
  warnings?: string[];
}

export interface RecordDates {
  /** ISO 8601 dates (YYYY-MM-DD). */
  deposition?: string;
  modification?: string;
}

export interface AssayTarget {
  name: string;
  accession?: string;
  geneId?: number;
  geneSymbol?: string;
}

export interface AssaySummaryRecord {
  aid: number;
  name: string;
  description: string;
  sourceName: string;
  method?: string;
  numSids: number;
  numActive: number;
  numCids?: number;
  numActiveCids?: number;
  targets: AssayTarget[];
  /** The record differs from the expected shape: what differs (the record is read as far as it can be). */
  warnings?: string[];
}

/** Gene details of an assay's targets, from `assay/aid/<aid>/targets/...`: parallel lists per type. */
export interface AssayTargetLists {
  proteinNames: string[];
  geneIds: number[];
  geneSymbols: string[];
}

/** What a PUG REST identifier answer can be: a finished list, or a ListKey to poll. */
export type IdentifierAnswer = { kind: "ids"; ids: number[] } | { kind: "waiting"; listKey: string };
