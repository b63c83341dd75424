import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchXrefs } from "../../sources/pubchem/compounds.ts";
import { XREF_TYPES } from "../../sources/pubchem/types.ts";
import { cidSchema } from "./shared.ts";

const input = z.object({
  cid: cidSchema.describe("The CID to find cross-references for, e.g. 2244."),
  xrefTypes: z.array(z.enum(XREF_TYPES)).min(1).describe(
    "Cross-reference types to retrieve: RegistryID (depositor registry ids), RN (CAS/EC registry numbers), " +
      "PubMedID (PMIDs, usable with the PubMed tools), PatentID, GeneID, ProteinGI, TaxonomyID.",
  ),
  maxPerType: z.number().int().positive().max(10_000).default(100).describe(
    "Maximum identifiers returned per type (well-studied compounds have tens of thousands of PMIDs); " +
      "totalCounts gives the full counts.",
  ),
});

const output = z.object({
  cid: z.number().int(),
  xrefs: z.record(z.string(), z.array(z.union([z.string(), z.number()]))).describe(
    "An object where keys are the requested xrefTypes and values are arrays of found identifiers (empty when none).",
  ),
  totalCounts: z.record(z.string(), z.number().int()).describe(
    "Identifiers PubChem holds per type, before maxPerType.",
  ),
});

export const fetchCompoundXrefs = defineTool({
  name: "fetch_compound_xrefs",
  title: "Fetch PubChem cross-references",
  toolset: "pubchem",
  description: "Fetches external cross-references of a compound (CID): PubMed IDs, patents, CAS registry numbers, " +
    "genes, proteins, taxa. PubMedIDs feed straight into the PubMed tools (e.g. fetch the articles' details). " +
    "Returns at most maxPerType identifiers per type (default 100) with the full counts. " +
    'Example: {"cid":2244,"xrefTypes":["PubMedID","RN"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ cid: 2244, xrefTypes: ["PubMedID"] }, { cid: 2244, xrefTypes: ["RN", "PatentID"], maxPerType: 20 }],
  async run(args, ctx) {
    const types = [...new Set(args.xrefTypes)];
    const all = await fetchXrefs(ctx, args.cid, types);
    const xrefs: Record<string, (string | number)[]> = {};
    const totalCounts: Record<string, number> = {};
    for (const type of types) {
      xrefs[type] = all[type].slice(0, args.maxPerType);
      totalCounts[type] = all[type].length;
    }
    return { cid: args.cid, xrefs, totalCounts };
  },
  render: (r) =>
    `CID ${r.cid}\n` + Object.entries(r.xrefs).map(([type, ids]) => {
      const total = r.totalCounts[type] ?? ids.length;
      return `${type} (${total}${ids.length < total ? `, first ${ids.length}` : ""}): ${ids.join(", ") || "none"}`;
    }).join("\n"),
});
