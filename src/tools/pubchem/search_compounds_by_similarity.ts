/** The `search_compounds_by_similarity` tool: PubChem 2D similarity search. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { similaritySearch } from "../../sources/pubchem/search.ts";
import { checkStructureQuery } from "./shared.ts";
import { count } from "../../render/markdown.ts";
import { cidCursorInput, cidNextLine, cidPage, cidPageSchema, cidPaging } from "./cid_pages.ts";

const input = z.object({
  query: z.string().trim().min(1).max(4000).describe("SMILES or CID"),
  queryType: z.enum(["smiles", "cid"]).describe("Format"),
  threshold: z.number().min(70).max(100).default(90).describe("Minimum Tanimoto percent; 85.5 searches at 86"),
  maxRecords: z.number().int().positive().max(100).default(20).describe("Per page"),
  cursor: cidCursorInput,
});

export const searchCompoundsBySimilarity = defineTool({
  name: "search_compounds_by_similarity",
  title: "PubChem 2D similarity search",
  toolset: "pubchem",
  description:
    "CIDs of compounds similar to a SMILES or CID (2D Tanimoto ≥ threshold); the query itself usually first. " +
    'Example: {"query":"2244","queryType":"cid","threshold":95}',
  input,
  output: cidPageSchema,
  annotations: READS_NETWORK,
  examples: [
    { query: "2244", queryType: "cid", threshold: 95, maxRecords: 10 },
    { query: "CC(=O)OC1=CC=CC=C1C(=O)O", queryType: "smiles" },
  ],
  async run(args, ctx) {
    const query = checkStructureQuery(args.queryType, args.query);
    // PubChem takes whole percentages; rounding up keeps every hit at or above the threshold asked for.
    return await cidPage(
      "search_compounds_by_similarity",
      args,
      (maxRecords) => similaritySearch(ctx, { ...args, query, threshold: Math.ceil(args.threshold), maxRecords }),
    );
  },
  render: (r) => `${count(r.cids.length, "similar CID")}: ${r.cids.join(", ")}\n${cidNextLine(r)}`,
  paging: cidPaging("search_compounds_by_similarity"),
});
