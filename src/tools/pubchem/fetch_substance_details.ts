/** The `fetch_substance_details` tool: Fetch a PubChem substance (SID). */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchSubstance } from "../../sources/pubchem/records.ts";
import { recordSection, textBlock } from "../../render/markdown.ts";

const input = z.object({
  sid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe("PubChem Substance ID (a depositor record)"),
});

const output = z.object({
  sid: z.number().int(),
  sourceName: z.string().describe("The name of the depositor/source."),
  sourceId: z.string().optional().describe("The depositor's own identifier for the record."),
  depositionDate: z.string().describe("The date the substance was deposited, ISO 8601 (YYYY-MM-DD)."),
  modificationDate: z.string().describe("The date the substance was last modified, ISO 8601 (YYYY-MM-DD)."),
  synonyms: z.array(z.string()).describe("A list of synonyms for the substance, as deposited."),
  relatedCids: z.array(z.number().int()).describe(
    "A list of standardized Compound IDs (CIDs) related to this substance.",
  ),
  warnings: z.array(z.string()).optional().describe(
    "What PubChem sent in an unexpected shape: kept as far as it reads, each named with what differs",
  ),
});

export const fetchSubstanceDetails = defineTool({
  name: "fetch_substance_details",
  title: "PubChem substance",
  toolset: "pubchem",
  description:
    "A deposited PubChem substance by SID: depositor and its id, deposition and modification dates, synonyms, " +
    'standardized CIDs. Example: {"sid":4594}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ sid: 4594 }],
  async run(args, ctx) {
    const record = await fetchSubstance(ctx, args.sid);
    return {
      sid: record.sid,
      sourceName: record.sourceName,
      ...(record.sourceId ? { sourceId: record.sourceId } : {}),
      depositionDate: record.dates.deposition ?? "",
      modificationDate: record.dates.modification ?? "",
      synonyms: record.synonyms,
      relatedCids: record.standardizedCids,
      ...(record.warnings ? { warnings: record.warnings } : {}),
    };
  },
  render: (r) => textBlock(recordSection(`SID ${r.sid}`, r, { omit: ["sid"] })),
});
