/**
 * The one identifier form the gene tools accept: `NCBIGene:<digits>`. Anything else gets the error that
 * tells an agent how to get a valid one: a symbol or name → search_genes; a bare or mis-prefixed number →
 * the CURIE to write instead.
 */
import { ToolError } from "../../core/errors.ts";

export const GENE_CURIE = /^NCBIGene:(\d{1,12})$/;

/** The Entrez Gene id (digits) of a CURIE; throws UNRESOLVED_ENTITY or INVALID_INPUT otherwise. */
export function parseGeneCurie(value: string, field = "entrez_id"): string {
  const match = GENE_CURIE.exec(value);
  if (match) return match[1];
  const digits = value.trim().match(/^(?:(?:NCBIGene|GeneID|EntrezGene|Entrez|ncbigene)\s*:\s*)?(\d{1,12})$/i)?.[1];
  if (digits) {
    return invalid(
      field,
      value,
      `'${value}' is not written as an NCBIGene CURIE`,
      `Pass "NCBIGene:${digits}" if ${digits} is an Entrez Gene id; otherwise call search_genes to find the gene.`,
    );
  }
  throw new ToolError(
    "UNRESOLVED_ENTITY",
    `'${value}' is not an NCBIGene CURIE; gene symbols and names must be resolved first.`,
    `Call search_genes(${JSON.stringify(value.trim())}) to resolve it to an NCBIGene CURIE`,
    { invalidInput: { field, value } },
  );
}

function invalid(field: string, value: string, why: string, hint: string): never {
  throw new ToolError("INVALID_INPUT", `Invalid input '${field}': ${why}`, hint, { invalidInput: { field, value } });
}
