/** The `search_compounds_by_structure` tool: PubChem substructure / superstructure / identity search. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { structureSearch } from "../../sources/pubchem/search.ts";
import { checkStructureQuery } from "./shared.ts";
import { count } from "../../render/markdown.ts";
import { cidCursorInput, cidNextLine, cidPage, cidPageSchema, cidPaging } from "./cid_pages.ts";

const input = z.object({
  searchType: z.enum(["substructure", "superstructure", "identity"]).describe("substructure: hits contain the query"),
  query: z.string().trim().min(1).max(4000).describe("SMILES or CID"),
  queryType: z.enum(["smiles", "cid"]).describe("Format"),
  maxRecords: z.number().int().positive().max(100).default(20).describe("Per page"),
  cursor: cidCursorInput,
});

export const searchCompoundsByStructure = defineTool({
  name: "search_compounds_by_structure",
  title: "PubChem structure search",
  toolset: "pubchem",
  description:
    "CIDs of compounds containing (substructure), within (superstructure) or identical to a SMILES or CID. " +
    "Example: " +
    '{"searchType":"substructure","query":"c1ccccc1C(=O)O","queryType":"smiles"}',
  input,
  output: cidPageSchema,
  annotations: READS_NETWORK,
  examples: [
    { searchType: "substructure", query: "C1=CC=C(C=C1)C(=O)O", queryType: "smiles", maxRecords: 5 },
    { searchType: "identity", query: "2244", queryType: "cid" },
  ],
  async run(args, ctx) {
    const query = checkStructureQuery(args.queryType, args.query);
    return await cidPage(
      "search_compounds_by_structure",
      args,
      (maxRecords) => structureSearch(ctx, { ...args, query, maxRecords }),
    );
  },
  render: (r) => `${count(r.cids.length, "matching CID")}: ${r.cids.join(", ")}\n${cidNextLine(r)}`,
  paging: cidPaging("search_compounds_by_structure"),
});
