import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchSubstance } from "../../sources/pubchem/records.ts";

const input = z.object({
  sid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe(
    "The PubChem Substance ID (SID), e.g. 4594. SIDs identify depositor records; compounds have CIDs.",
  ),
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
});

export const fetchSubstanceDetails = defineTool({
  name: "fetch_substance_details",
  title: "Fetch a PubChem substance (SID)",
  toolset: "pubchem",
  description: "Returns a deposited PubChem substance record by SID: depositor (source) name and id, deposition " +
    "and modification dates (ISO), synonyms as deposited, and the standardized CIDs it maps to (use those with " +
    "fetch_compound_properties). For compounds (CIDs) use the compound tools instead. Dates are empty strings if " +
    'PubChem reports none. Example: {"sid":4594}',
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
    };
  },
  render: (r) =>
    `SID ${r.sid} from ${r.sourceName}${r.sourceId ? ` (${r.sourceId})` : ""}, deposited ${r.depositionDate || "?"}, ` +
    `modified ${r.modificationDate || "?"}; CIDs: ${r.relatedCids.join(", ") || "none"}; ` +
    `synonyms: ${r.synonyms.slice(0, 10).join("; ")}${r.synonyms.length > 10 ? ` (+${r.synonyms.length - 10})` : ""}`,
});
