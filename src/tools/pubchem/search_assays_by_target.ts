import { z } from "zod";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { searchAssaysByTarget as searchAssays } from "../../sources/pubchem/records.ts";
import { incoherent } from "./shared.ts";

const input = z.object({
  targetType: z.enum(["genesymbol", "proteinname"]).describe("The type of biological target."),
  targetQuery: z.string().trim().min(1).max(500).describe(
    "The target identifier, e.g. 'EGFR' (gene symbol) or 'Epidermal growth factor receptor' (protein name).",
  ),
  maxRecords: z.number().int().positive().max(10_000).default(100).describe(
    "Maximum number of AIDs to return (popular targets have thousands); totalFound gives the full count.",
  ),
});

const output = z.object({
  aids: z.array(z.number().int()).describe("BioAssay IDs (AIDs) run against the target, ascending."),
  totalFound: z.number().int().describe("How many AIDs PubChem lists for the target, before maxRecords."),
});

export const searchAssaysByTarget = defineTool({
  name: "search_assays_by_target",
  title: "Find PubChem BioAssays by target",
  toolset: "pubchem",
  description: "Finds PubChem BioAssay IDs (AIDs) run against a biological target, given a gene symbol or a " +
    "protein name. Returns up to maxRecords AIDs (default 100) in ascending order with the total count; read one " +
    "with fetch_assay_summary. Gene symbols are single tokens ('EGFR'); for names with spaces use " +
    'targetType \'proteinname\'. Example: {"targetType":"genesymbol","targetQuery":"CYP3A4"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { targetType: "genesymbol", targetQuery: "CYP3A4" },
    { targetType: "proteinname", targetQuery: "cytochrome P450 3A4", maxRecords: 10 },
  ],
  async run(args, ctx) {
    if (args.targetType === "genesymbol" && /\s/.test(args.targetQuery)) {
      throw incoherent(
        { targetQuery: args.targetQuery, targetType: args.targetType },
        `targetType is 'genesymbol' but '${args.targetQuery}' contains spaces; gene symbols are single tokens.`,
        "Pass the official gene symbol (e.g. 'EGFR'), or set targetType to 'proteinname' for a protein name.",
      );
    }
    const aids = await searchAssays(ctx, args.targetType, args.targetQuery);
    if (aids.length === 0) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `PubChem lists no assays for ${args.targetType} '${args.targetQuery}'.`,
        "Check the target name, or try the other targetType.",
      );
    }
    return { aids: aids.slice(0, args.maxRecords), totalFound: aids.length };
  },
  render: (r) =>
    `${r.totalFound} assay${r.totalFound === 1 ? "" : "s"}${
      r.aids.length < r.totalFound ? ` (first ${r.aids.length})` : ""
    }: ` +
    r.aids.join(", "),
});
