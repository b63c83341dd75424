/**
 * Pieces every PubChem tool shares: id schemas and the input-coherence checks that run
 * before any request (a CID query that is not a number, a SMILES with spaces, a malformed InChIKey).
 */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";

export const cidSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const cidListSchema = z.array(z.number().int()).describe("Matching PubChem Compound IDs (CIDs), best first.");

const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;

/**
 * A failure that involves two fields (`query` is wrong *for* `queryType`): both are named, in the core's
 * `invalid_input` shape (`field` lists them like unrecognized keys do; `value` holds each one's value).
 */
export function incoherent(fields: Record<string, unknown>, rule: string, hint: string): ToolError {
  const names = Object.keys(fields);
  return new ToolError("INVALID_INPUT", `Invalid input '${names.join("' with '")}': ${rule}`, hint, {
    invalidInput: { field: names.join(", "), rule, value: fields },
  });
}

/** Checks a structure query against its declared type; returns the query normalised (trimmed). */
export function checkStructureQuery(queryType: "smiles" | "cid", raw: string): string {
  const query = raw.trim();
  if (queryType === "cid") {
    if (!/^\d+$/.test(query) || !(Number(query) > 0) || !Number.isSafeInteger(Number(query))) {
      throw incoherent(
        { query: raw, queryType },
        `queryType is 'cid' but query '${clip(raw)}' is not a positive integer CID.`,
        "Pass a CID such as '2244' as query, or set queryType to 'smiles' for a SMILES string.",
      );
    }
    return String(Number(query));
  }
  checkSmiles(query, { query: raw, queryType });
  return query;
}

export function checkSmiles(smiles: string, fields: Record<string, unknown>): void {
  if (/\s/.test(smiles)) {
    throw incoherent(
      fields,
      `a SMILES string cannot contain whitespace ('${clip(smiles)}').`,
      "Pass the SMILES alone (e.g. 'CC(=O)OC1=CC=CC=C1C(=O)O'); for a chemical name use search_compound_by_identifier " +
        "with identifierType 'name'.",
    );
  }
}

export function checkInchiKey(key: string, fields: Record<string, unknown>): string {
  const upper = key.toUpperCase();
  if (!INCHIKEY.test(upper)) {
    throw incoherent(
      fields,
      `'${clip(key)}' is not an InChIKey (27 characters: 14 letters, '-', 10 letters, '-', 1 letter).`,
      "Pass a full InChIKey such as 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', or choose identifierType 'name' or 'smiles'.",
    );
  }
  return upper;
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}
