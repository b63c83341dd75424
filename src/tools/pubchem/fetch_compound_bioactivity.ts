/** fetch_compound_bioactivity: a compound's bioassay outcomes (PUG REST assaysummary), counted, ranked by target, paged. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchBioactivity } from "../../sources/pubchem/bioactivity.ts";
import { cidSchema } from "./shared.ts";
import { cursorBinding, cursorInput, decodeCursor, encodeCursor } from "../../core/envelope.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";

const input = z.object({
  cid: cidSchema.describe("PubChem CID, e.g. 2244"),
  offset: z.number().int().min(0).default(0).describe("Assays to skip"),
  count: z.number().int().min(1).max(100).default(20).describe("Assays per page"),
  cursor: cursorInput("fetch_compound_bioactivity"),
});

const outcome = z.enum(["active", "inactive", "inconclusive", "unspecified"]);

const output = z.object({
  cid: z.number().int(),
  counts: z.object({
    active: z.number().int(),
    inactive: z.number().int(),
    inconclusive: z.number().int(),
    unspecified: z.number().int(),
  }).describe("Assays per outcome (an assay counts as active if any tested sample was)."),
  topTargets: z.array(z.object({
    geneId: z.number().int().optional().describe("NCBI Gene ID (get_gene takes NCBIGene:<id>)."),
    accession: z.string().optional(),
    symbol: z.string().optional(),
    name: z.string().optional(),
    activeAssays: z.number().int(),
    testedAssays: z.number().int(),
  })).describe("Up to 10 targets, most active assays first."),
  total: z.number().int().describe("Assays in which the compound was tested (all pages)."),
  offset: z.number().int(),
  nextOffset: z.number().int().optional().describe("Pass as offset for the next page; absent on the last."),
  next_cursor: z.string().optional().describe("Pass as cursor for the next page; absent on the last."),
  next: nextCallSchema,
  assays: z.array(z.object({
    aid: z.number().int(),
    outcome,
    name: z.string().optional(),
    type: z.string().optional(),
    targetGeneId: z.number().int().optional(),
    targetAccession: z.string().optional(),
    activityName: z.string().optional().describe("e.g. IC50, Ki."),
    activityValue: z.number().optional().describe("In µM."),
    pubmedId: z.number().int().optional(),
  })).describe("This page of assays, active first, then by AID."),
  warnings: z.array(z.string()).optional().describe(
    "Assay rows PubChem sent in an unexpected shape: counted as far as they read, each named with what differs",
  ),
});

export const fetchCompoundBioactivity = defineTool({
  name: "fetch_compound_bioactivity",
  title: "PubChem bioactivity of a compound",
  toolset: "pubchem",
  description: "What a compound is active against (PubChem bioassays): outcome counts, top targets (NCBI Gene " +
    "ids), assays (AID, outcome, target, IC50-type values), active first; paged. One assay: " +
    'fetch_assay_summary. Example: {"cid":2244,"count":10}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ cid: 2244, count: 10 }],
  async run(args, ctx) {
    const binding = await cursorBinding("fetch_compound_bioactivity", { cid: args.cid });
    const offset = args.cursor ? decodeCursor(args.cursor, binding, "fetch_compound_bioactivity") : args.offset;
    const { counts, assays, topTargets, warnings } = await fetchBioactivity(ctx, args.cid);
    const end = offset + args.count;
    const cursor = end < assays.length ? encodeCursor(end, binding) : undefined;
    return {
      cid: args.cid,
      counts,
      topTargets,
      total: assays.length,
      offset,
      ...(cursor
        ? {
          nextOffset: end,
          next_cursor: cursor,
          next: nextCall("fetch_compound_bioactivity", { cid: args.cid, count: args.count }, { cursor }),
        }
        : {}),
      assays: assays.slice(offset, end),
      ...(warnings ? { warnings } : {}),
    };
  },
  render(r) {
    const c = r.counts;
    const shown = r.assays.length ? `${r.offset + 1}–${r.offset + r.assays.length}` : "none";
    return [
      `# Bioactivity of CID ${r.cid}`,
      `assays tested: ${r.total} (active ${c.active}, inactive ${c.inactive}, inconclusive ${c.inconclusive}, ` +
      `unspecified ${c.unspecified})`,
      "",
      "## Top targets (active/tested assays)",
      ...(r.topTargets.length ? r.topTargets.map((t) => `- ${targetLabel(t)}: ${t.activeAssays}/${t.testedAssays}`) : [
        "- none (no assay with a molecular target)",
      ]),
      "",
      `## Assays ${shown} of ${r.total}`,
      ...r.assays.map((a) => {
        const target = [a.targetGeneId !== undefined && `NCBIGene:${a.targetGeneId}`, a.targetAccession].filter(Boolean)
          .join(", ");
        const value = a.activityValue !== undefined ? `${a.activityName ?? "value"} ${a.activityValue} µM` : undefined;
        const details = [a.type, target, value, a.pubmedId && `PMID ${a.pubmedId}`].filter(Boolean).join("; ");
        return `- AID ${a.aid} ${a.outcome}: ${a.name ?? "(unnamed assay)"}${details ? ` (${details})` : ""}`;
      }),
      ...(r.nextOffset !== undefined ? ["", `${nextCallLine(r.next, "cursor")} (or offset=${r.nextOffset})`] : []),
      ...(r.warnings ?? []).map((w) => `warning: ${w}`),
    ].join("\n");
  },
  // A page the output budget cut goes on after the assays kept, by cursor and by offset alike (#31).
  paging: {
    argument: "cursor",
    path: "assays",
    keep: (r, kept, args) => {
      const end = r.offset + kept;
      const cursor = encodeCursor(end, cursorBinding("fetch_compound_bioactivity", { cid: args.cid }));
      const next = nextCall("fetch_compound_bioactivity", { cid: args.cid, count: args.count }, { cursor });
      return { ...r, nextOffset: end, next_cursor: cursor, next };
    },
  },
});

function targetLabel(t: { geneId?: number; accession?: string; symbol?: string; name?: string }): string {
  const id = [t.geneId !== undefined && `NCBIGene:${t.geneId}`, t.accession].filter(Boolean).join(", ");
  const head = t.symbol ? `${t.symbol} (${id})` : id;
  return t.name ? `${head} ${t.name}` : head;
}
