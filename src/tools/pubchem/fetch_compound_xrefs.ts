/** The `fetch_compound_xrefs` tool: Fetch PubChem cross-references. */
import { z } from "npm:zod@4.6.7";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchXrefs } from "../../sources/pubchem/compounds.ts";
import { XREF_TYPES } from "../../sources/pubchem/types.ts";
import { cidSchema } from "./shared.ts";
import { textBlock } from "../../render/markdown.ts";

const input = z.object({
  cid: cidSchema.describe("PubChem Compound ID"),
  xrefTypes: z.array(z.enum(XREF_TYPES)).min(1).describe("RN: CAS/EC numbers; RegistryID: depositor ids"),
  maxPerType: z.number().int().positive().max(10_000).default(100).describe("Identifiers per type"),
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
  title: "PubChem cross-references",
  toolset: "pubchem",
  description:
    "External ids of a compound (CID) by type: PubMed IDs, patents, CAS/EC numbers, genes, proteins, taxa; up " +
    'to maxPerType each, with full counts. Example: {"cid":2244,"xrefTypes":["PubMedID","RN"]}',
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
    textBlock(
      `Cross-references of CID ${r.cid}:`,
      Object.entries(r.xrefs).map(([type, ids]) => {
        const total = r.totalCounts[type] ?? ids.length;
        return `${type} (${ids.length} of ${total}): ${ids.join(", ") || "none"}`;
      }),
    ),
});
