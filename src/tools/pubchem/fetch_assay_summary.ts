/** The `fetch_assay_summary` tool: Fetch a PubChem BioAssay summary. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchAssaySummary as fetchSummary } from "../../sources/pubchem/records.ts";
import { DATA_LINE, fieldLines, recordSection, textBlock } from "../../render/markdown.ts";

const input = z.object({
  aid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe("PubChem BioAssay ID"),
});

const output = z.object({
  aid: z.number().int(),
  name: z.string(),
  description: z.string().describe("The depositor's description, paragraphs separated by newlines."),
  sourceName: z.string().describe("The depositor of the assay."),
  method: z.string().optional().describe("Assay method as PubChem labels it, e.g. 'confirmatory', 'screening'."),
  numSids: z.number().int().describe("Substances (SIDs) tested."),
  numActive: z.number().int().describe("Substances (SIDs) active."),
  numCids: z.number().int().optional().describe("Compounds (CIDs) tested."),
  numActiveCids: z.number().int().optional().describe("Compounds (CIDs) active."),
  targets: z.array(z.object({
    name: z.string(),
    accession: z.string().optional().describe("Protein accession (e.g. UniProt), when PubChem gives one."),
    geneId: z.number().int().optional().describe("NCBI Gene ID, when known."),
    geneSymbol: z.string().optional().describe("Gene symbol, when known."),
  })).describe("Biological targets of the assay (empty for assays without a molecular target)."),
  warnings: z.array(z.string()).optional().describe(
    "What PubChem sent in an unexpected shape: kept as far as it reads, each named with what differs",
  ),
});

export const fetchAssaySummary = defineTool({
  name: "fetch_assay_summary",
  title: "PubChem BioAssay",
  toolset: "pubchem",
  description: "A PubChem BioAssay by AID: name, description, depositor, method, tested and active counts, " +
    'targets (NCBI Gene id, symbol). Example: {"aid":1851}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ aid: 1851 }],
  async run(args, ctx) {
    return await fetchSummary(ctx, args.aid);
  },
  render: (r) =>
    textBlock(
      recordSection(`${DATA_LINE}AID ${r.aid}: ${r.name}`, r, {
        omit: ["aid", "name", "description", "targets", "warnings"],
      }),
      r.targets.length > 0 && ["targets:", ...r.targets.map((t) => `- ${fieldLines(t).join("; ")}`)],
      r.description && ["", "### description", r.description],
      (r.warnings ?? []).map((w) => `warning: ${w}`),
    ),
});
