/** The `search_assays_by_target` tool: Find PubChem BioAssays by target. */
import { z } from "zod";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { searchAssaysByTarget as searchAssays } from "../../sources/pubchem/records.ts";
import { incoherent } from "./shared.ts";
import { count, textBlock } from "../../render/markdown.ts";
import { cursorBinding, cursorInput, decodeCursor, encodeCursor } from "../../core/envelope.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";

/** Characters one AID takes in the text ("1234567, "): a page is sized to the output budget. */
const CHARS_PER_AID = 9;

const input = z.object({
  targetType: z.enum(["genesymbol", "proteinname"]).describe("A gene symbol is one token"),
  targetQuery: z.string().trim().min(1).max(500).describe("e.g. EGFR, Epidermal growth factor receptor"),
  maxRecords: z.number().int().positive().max(10_000).default(100).describe("AIDs per page"),
  cursor: cursorInput("search_assays_by_target").describe("next_cursor of the previous page"),
});

const output = z.object({
  aids: z.array(z.number().int()).describe("BioAssay IDs (AIDs) run against the target, ascending."),
  totalFound: z.number().int().describe("How many AIDs PubChem lists for the target, before maxRecords."),
  next_cursor: z.string().optional().describe("Pass as cursor for the next page; absent on the last."),
  next: nextCallSchema,
});

export const searchAssaysByTarget = defineTool({
  name: "search_assays_by_target",
  title: "PubChem assays by target",
  toolset: "pubchem",
  description: "AIDs of PubChem BioAssays run against a target (gene symbol or protein name), with the total count; " +
    'details: fetch_assay_summary. Example: {"targetType":"genesymbol","targetQuery":"CYP3A4"}',
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
    const binding = await cursorBinding("search_assays_by_target", {
      targetType: args.targetType,
      targetQuery: args.targetQuery,
    });
    const offset = decodeCursor(args.cursor, binding, "search_assays_by_target");
    const size = Math.min(args.maxRecords, Math.floor((ctx.outputBudget - 1000) / CHARS_PER_AID));
    const end = offset + size;
    const cursor = end < aids.length ? encodeCursor(end, binding) : undefined;
    return {
      aids: aids.slice(offset, end),
      totalFound: aids.length,
      ...(cursor
        ? { next_cursor: cursor, next: nextCall("search_assays_by_target", { ...args, maxRecords: size }, { cursor }) }
        : {}),
    };
  },
  render: (r) =>
    textBlock(
      `${r.aids.length} of ${count(r.totalFound, "assay")} (AIDs, ascending): ${r.aids.join(", ")}`,
      nextCallLine(r.next, "cursor"),
    ),
});
