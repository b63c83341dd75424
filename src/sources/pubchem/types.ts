/**
 * Records the PubChem adapter returns. Numbers are numbers here even where PUG REST sends strings
 * (MolecularWeight, ExactMass): the parsers decide types once, so tools never see both shapes.
 */

/** Compound properties a caller may ask for: the spec's list plus the SMILES names, old and new. */
export const COMPOUND_PROPERTIES = [
  "MolecularFormula",
  "MolecularWeight",
  "SMILES",
  "ConnectivitySMILES",
  "CanonicalSMILES",
  "IsomericSMILES",
  "InChI",
  "InChIKey",
  "IUPACName",
  "Title",
  "XLogP",
  "ExactMass",
  "MonoisotopicMass",
  "TPSA",
  "Complexity",
  "Charge",
  "HBondDonorCount",
  "HBondAcceptorCount",
  "RotatableBondCount",
  "HeavyAtomCount",
  "CovalentUnitCount",
] as const;
export type CompoundProperty = typeof COMPOUND_PROPERTIES[number];

/** Properties PubChem computes as text, as fractional numbers, and as integer counts. */
export const TEXT_PROPERTIES = [
  "MolecularFormula",
  "SMILES",
  "ConnectivitySMILES",
  "CanonicalSMILES",
  "IsomericSMILES",
  "InChI",
  "InChIKey",
  "IUPACName",
  "Title",
] as const satisfies readonly CompoundProperty[];
export const FLOAT_PROPERTIES = [
  "MolecularWeight",
  "XLogP",
  "ExactMass",
  "MonoisotopicMass",
  "TPSA",
  "Complexity",
] as const satisfies readonly CompoundProperty[];
export type TextProperty = typeof TEXT_PROPERTIES[number];
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
}

/** Gene details of an assay's targets, from `assay/aid/<aid>/targets/...`: parallel lists per type. */
export interface AssayTargetLists {
  proteinNames: string[];
  geneIds: number[];
  geneSymbols: string[];
}

/** What a PUG REST identifier answer can be: a finished list, or a ListKey to poll. */
export type IdentifierAnswer = { kind: "ids"; ids: number[] } | { kind: "waiting"; listKey: string };
