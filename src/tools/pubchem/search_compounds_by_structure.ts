import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { structureSearch } from "../../sources/pubchem/search.ts";
import { checkStructureQuery, cidListSchema } from "./shared.ts";

const input = z.object({
  searchType: z.enum(["substructure", "superstructure", "identity"]).describe(
    "The type of structural search: 'substructure' (hits contain the query), 'superstructure' (hits are contained " +
      "in the query) or 'identity' (same structure, same stereo/isotopes).",
  ),
  query: z.string().trim().min(1).max(4000).describe(
    "The query structure, as a SMILES string or a CID (e.g. 'c1ccccc1' or '2244').",
  ),
  queryType: z.enum(["smiles", "cid"]).describe("The format of the provided query."),
  maxRecords: z.number().int().positive().max(100).default(20).describe("Maximum number of matching CIDs to return."),
});

export const searchCompoundsByStructure = defineTool({
  name: "search_compounds_by_structure",
  title: "PubChem substructure / superstructure / identity search",
  toolset: "pubchem",
  description: "Finds compounds by structure: every compound containing the query (substructure), contained in it " +
    "(superstructure) or identical to it (identity). Query by SMILES or by CID. Returns up to maxRecords CIDs " +
    "(≤100). Broad queries that time out at PubChem are finished through its asynchronous ListKey search, with " +
    "progress notifications. For 'looks like' matches use search_compounds_by_similarity. " +
    'Example: {"searchType":"substructure","query":"C1=CC=C(C=C1)C(=O)O","queryType":"smiles","maxRecords":5}',
  input,
  output: z.object({ cids: cidListSchema }),
  annotations: READS_NETWORK,
  examples: [
    { searchType: "substructure", query: "C1=CC=C(C=C1)C(=O)O", queryType: "smiles", maxRecords: 5 },
    { searchType: "identity", query: "2244", queryType: "cid" },
  ],
  async run(args, ctx) {
    const query = checkStructureQuery(args.queryType, args.query);
    return { cids: await structureSearch(ctx, { ...args, query }) };
  },
  render: (r) => `${r.cids.length} matching CID${r.cids.length === 1 ? "" : "s"}: ${r.cids.join(", ")}`,
});
