/** The `search_compounds_by_formula` tool: PubChem molecular formula search. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { formulaSearch } from "../../sources/pubchem/search.ts";
import { count } from "../../render/markdown.ts";
import { cidCursorInput, cidNextLine, cidPage, cidPageSchema, cidPaging } from "./cid_pages.ts";

/** Element symbols with optional counts, e.g. `C9H8O4`, `NaCl`, `C6H12O6`. */
export const MOLECULAR_FORMULA_REGEX = /^[A-Z][a-z]?\d*([A-Z][a-z]?\d*)*$/;

const input = z.object({
  formula: z.string().trim().max(200).regex(MOLECULAR_FORMULA_REGEX, "must be a molecular formula such as 'C6H12O6'")
    .describe("e.g. C6H12O6"),
  allowOtherElements: z.boolean().default(false).describe("Also match compounds with more elements"),
  maxRecords: z.number().int().positive().max(100).default(50).describe("Per page"),
  cursor: cidCursorInput,
});

export const searchCompoundsByFormula = defineTool({
  name: "search_compounds_by_formula",
  title: "PubChem formula search",
  toolset: "pubchem",
  description: "CIDs of compounds with a molecular formula (isomers). " +
    'Example: {"formula":"C9H8O4","maxRecords":10}',
  input,
  output: cidPageSchema,
  annotations: READS_NETWORK,
  examples: [{ formula: "C9H8O4", maxRecords: 10 }, { formula: "C9H8O4", allowOtherElements: true }],
  async run(args, ctx) {
    return await cidPage(
      "search_compounds_by_formula",
      args,
      (maxRecords) => formulaSearch(ctx, { ...args, maxRecords }),
    );
  },
  render: (r) => `${count(r.cids.length, "CID")} with this formula: ${r.cids.join(", ")}\n${cidNextLine(r)}`,
  paging: cidPaging("search_compounds_by_formula"),
});
