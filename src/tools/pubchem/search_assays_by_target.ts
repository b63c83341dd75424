/** The `search_assays_by_target` tool: Find PubChem BioAssays by target. */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { searchAssaysByTarget as searchAssays } from "../../sources/pubchem/records.ts";
import { incoherent } from "./shared.ts";
import { count, textBlock } from "../../render/markdown.ts";
import { offsetPaging } from "../../core/envelope.ts";
import { cursorInput } from "../../core/envelope.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";
import { idPager, idsThatFit, textBudget } from "./id_pages.ts";

const input = z.object({
  targetType: z.enum(["genesymbol", "proteinname"]).describe("A gene symbol is one token"),
  targetQuery: z.string().trim().min(1).max(500).describe("e.g. EGFR, Epidermal growth factor receptor"),
  maxRecords: z.number().int().positive().optional().describe("AIDs in all; default every one"),
  cursor: cursorInput("search_assays_by_target"),
});

const output = z.object({
  aids: z.array(z.number().int()).describe("BioAssay IDs (AIDs) run against the target, ascending: this page."),
  totalFound: z.number().int().describe("How many AIDs PubChem lists for the target, before maxRecords."),
  next_cursor: z.string().optional().describe("Pass as cursor for the next page; absent on the last."),
  next: nextCallSchema,
});

export const searchAssaysByTarget = defineTool({
  name: "search_assays_by_target",
  title: "PubChem assays by target",
  toolset: "pubchem",
  description: "AIDs of PubChem BioAssays run against a target, with the total; paged. Details: " +
    'fetch_assay_summary. Example: {"targetType":"genesymbol","targetQuery":"CYP3A4"}',
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
    const { targetType, targetQuery, maxRecords } = args;
    const pager = await idPager("search_assays_by_target", { targetType, targetQuery, maxRecords }, args.cursor);
    const aids = await searchAssays(ctx, args.targetType, args.targetQuery);
    if (aids.length === 0) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `PubChem lists no assays for ${args.targetType} '${args.targetQuery}'.`,
        "Check the target name, or try the other targetType.",
      );
    }
    const list = maxRecords === undefined ? aids : aids.slice(0, maxRecords);
    const n = idsThatFit(list, pager.offset, textBudget(ctx));
    const end = pager.offset + n;
    return {
      aids: list.slice(pager.offset, end),
      totalFound: aids.length,
      ...(end < list.length
        ? {
          next_cursor: pager.cursor(end),
          next: nextCall("search_assays_by_target", args, { cursor: pager.cursor(end) }),
        }
        : {}),
    };
  },
  render: (r) =>
    textBlock(
      `${r.aids.length} of ${count(r.totalFound, "assay")} (AIDs, ascending): ${r.aids.join(", ")}`,
      nextCallLine(r.next, "cursor"),
    ),
  // A page the output budget cut goes on after the AIDs kept (#31).
  paging: offsetPaging({
    tool: "search_assays_by_target",
    path: "aids",
    defining: (a) => ({ targetType: a.targetType, targetQuery: a.targetQuery, maxRecords: a.maxRecords }),
  }),
});
