/**
 * The hint for a compound name (or InChIKey, SMILES) given where a PubChem CID is wanted (#34): the
 * search_compound_by_identifier call that turns it into the CID. Every pubchem tool carries it as its `inputHint`.
 */

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** @example wrongCidHint("cid", "aspirin") // '"aspirin" is not a PubChem CID: …' */
export function wrongCidHint(field: string, value: unknown): string | undefined {
  if (!/^cids?(\.\d+)?$/.test(field) || typeof value !== "string" || NUMERIC.test(value)) return undefined;
  const identifier = value.trim();
  const identifierType = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(identifier)
    ? "inchikey"
    : /^[A-Za-z0-9@+\-\[\]()=#$%/\\.]+$/.test(identifier) && /[=#()[\]]/.test(identifier)
    ? "smiles"
    : "name";
  return `${JSON.stringify(identifier)} is not a PubChem CID: get the CID with search_compound_by_identifier ` +
    `${JSON.stringify({ identifierType, identifier })}, then call again with it.`;
}
