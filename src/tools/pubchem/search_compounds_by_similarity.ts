import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { similaritySearch } from "../../sources/pubchem/search.ts";
import { checkStructureQuery, cidListSchema } from "./shared.ts";

const input = z.object({
  query: z.string().trim().min(1).max(4000).describe(
    "The query structure as a SMILES string or a CID (e.g. 'CC(=O)OC1=CC=CC=C1C(=O)O' or '2244').",
  ),
  queryType: z.enum(["smiles", "cid"]).describe("The format of the provided query."),
  threshold: z.number().int().min(70).max(100).default(90).describe(
    "Minimum Tanimoto similarity score, as a whole percentage (70-100).",
  ),
  maxRecords: z.number().int().positive().max(100).default(20).describe("Maximum number of similar CIDs to return."),
});

export const searchCompoundsBySimilarity = defineTool({
  name: "search_compounds_by_similarity",
  title: "PubChem 2D similarity search",
  toolset: "pubchem",
  description: "Finds compounds whose 2D structure is similar to a query (SMILES or CID), by PubChem fingerprint " +
    "Tanimoto score ≥ threshold (70-100, default 90). Returns up to maxRecords CIDs (≤100); the query compound " +
    "itself is usually first. Searches that time out are finished through PubChem's asynchronous ListKey search. " +
    "For exact containment use search_compounds_by_structure. " +
    'Example: {"query":"2244","queryType":"cid","threshold":95,"maxRecords":10}',
  input,
  output: z.object({ cids: cidListSchema }),
  annotations: READS_NETWORK,
  examples: [
    { query: "2244", queryType: "cid", threshold: 95, maxRecords: 10 },
    { query: "CC(=O)OC1=CC=CC=C1C(=O)O", queryType: "smiles" },
  ],
  async run(args, ctx) {
    const query = checkStructureQuery(args.queryType, args.query);
    return { cids: await similaritySearch(ctx, { ...args, query }) };
  },
  render: (r) => `${r.cids.length} similar CID${r.cids.length === 1 ? "" : "s"}: ${r.cids.join(", ")}`,
});
