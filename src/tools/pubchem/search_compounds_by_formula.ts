import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { formulaSearch } from "../../sources/pubchem/search.ts";
import { cidListSchema } from "./shared.ts";

/** Element symbols with optional counts, e.g. `C9H8O4`, `NaCl`, `C6H12O6`. */
export const MOLECULAR_FORMULA_REGEX = /^[A-Z][a-z]?\d*([A-Z][a-z]?\d*)*$/;

const input = z.object({
  formula: z.string().trim().max(200).regex(MOLECULAR_FORMULA_REGEX, "must be a molecular formula such as 'C6H12O6'")
    .describe("A valid molecular formula (e.g. 'C6H12O6'): element symbols with optional counts, no spaces."),
  allowOtherElements: z.boolean().default(false).describe(
    "If true, also return compounds containing elements beyond those in the formula.",
  ),
  maxRecords: z.number().int().positive().max(100).default(50).describe("Maximum number of matching CIDs to return."),
});

export const searchCompoundsByFormula = defineTool({
  name: "search_compounds_by_formula",
  title: "PubChem molecular formula search",
  toolset: "pubchem",
  description: "Finds compounds with a given molecular formula (isomers), e.g. every C9H8O4. Returns up to " +
    "maxRecords CIDs (≤100, default 50); set allowOtherElements to also match compounds with extra elements. " +
    "To narrow the isomers, fetch their properties with fetch_compound_properties. " +
    'Example: {"formula":"C9H8O4","maxRecords":10}',
  input,
  output: z.object({ cids: cidListSchema }),
  annotations: READS_NETWORK,
  examples: [{ formula: "C9H8O4", maxRecords: 10 }, { formula: "C9H8O4", allowOtherElements: true }],
  async run(args, ctx) {
    return { cids: await formulaSearch(ctx, args) };
  },
  render: (r) => `${r.cids.length} CID${r.cids.length === 1 ? "" : "s"} with this formula: ${r.cids.join(", ")}`,
});
