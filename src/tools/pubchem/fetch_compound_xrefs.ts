/** The `fetch_compound_xrefs` tool: Fetch PubChem cross-references. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchXrefs } from "../../sources/pubchem/compounds.ts";
import { XREF_TYPES } from "../../sources/pubchem/types.ts";
import { cidSchema } from "./shared.ts";
import { nextPage, textBlock } from "../../render/markdown.ts";
import { cursorInput } from "../../core/envelope.ts";
import { idPager, idsThatFit, textBudget } from "./id_pages.ts";

const input = z.object({
  cid: cidSchema.describe("PubChem CID"),
  xrefTypes: z.array(z.enum(XREF_TYPES)).min(1).describe("RN: CAS/EC numbers; RegistryID: depositor ids"),
  maxPerType: z.number().int().positive().optional().describe("Identifiers per type; default all"),
  cursor: cursorInput("fetch_compound_xrefs"),
});

const output = z.object({
  cid: z.number().int(),
  xrefs: z.record(z.string(), z.array(z.union([z.string(), z.number()]))).describe(
    "An object where keys are the requested xrefTypes and values are arrays of found identifiers (empty when none).",
  ),
  totalCounts: z.record(z.string(), z.number().int()).describe(
    "Identifiers PubChem holds per type, before maxPerType.",
  ),
  next_cursor: z.string().optional().describe("Pass as cursor for the rest; absent on the last page."),
});

export const fetchCompoundXrefs = defineTool({
  name: "fetch_compound_xrefs",
  title: "PubChem cross-references",
  toolset: "pubchem",
  description: "A compound's external ids by type (PubMed IDs, patents, CAS/EC numbers, genes, proteins, taxa), with " +
    'counts; paged. Example: {"cid":2244,"xrefTypes":["PubMedID","RN"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ cid: 2244, xrefTypes: ["PubMedID"] }, { cid: 2244, xrefTypes: ["RN", "PatentID"], maxPerType: 20 }],
  async run(args, ctx) {
    const types = [...new Set(args.xrefTypes)];
    const pager = await idPager("fetch_compound_xrefs", {
      cid: args.cid,
      xrefTypes: types,
      maxPerType: args.maxPerType,
    }, args.cursor);
    const all = await fetchXrefs(ctx, args.cid, types);
    // One list over every type, in the order asked, so one cursor pages through all of them.
    const listed = types.flatMap((type) => all[type].slice(0, args.maxPerType).map((id) => ({ type, id })));
    const end = pager.offset + idsThatFit(listed.map((x) => x.id), pager.offset, textBudget(ctx));
    const xrefs: Record<string, (string | number)[]> = Object.fromEntries(types.map((t) => [t, []]));
    for (const { type, id } of listed.slice(pager.offset, end)) xrefs[type].push(id);
    const totalCounts = Object.fromEntries(types.map((t) => [t, all[t].length]));
    return {
      cid: args.cid,
      xrefs,
      totalCounts,
      ...(end < listed.length ? { next_cursor: pager.cursor(end) } : {}),
    };
  },
  render: (r) =>
    textBlock(
      `Cross-references of CID ${r.cid}:`,
      Object.entries(r.xrefs).map(([type, ids]) => {
        const total = r.totalCounts[type] ?? ids.length;
        return `${type} (${ids.length} of ${total}): ${ids.join(", ") || (total ? "on another page" : "none")}`;
      }),
      nextPage(r.next_cursor),
    ),
});
