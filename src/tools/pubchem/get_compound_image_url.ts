import { z } from "zod";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { compoundImageUrl } from "../../sources/pubchem/client.ts";
import { cidSchema } from "./shared.ts";

const input = z.object({
  cid: cidSchema.describe("The PubChem Compound ID (CID), e.g. 2244."),
  size: z.enum(["small", "large"]).default("large").describe("Image size: 'small' (100x100) or 'large' (300x300)."),
});

const output = z.object({
  cid: z.number().int(),
  imageUrl: z.url().describe("A direct URL to the PNG image of the compound's 2D structure."),
});

export const getCompoundImageUrl = defineTool({
  name: "get_compound_image_url",
  title: "PubChem structure image URL",
  toolset: "pubchem",
  description: "Returns a direct URL to a PNG depiction of a compound's 2D structure, for multimodal agents or " +
    "for showing a user. The URL is built locally (no request), so it does not check that the CID exists: resolve " +
    "or verify CIDs with search_compound_by_identifier or fetch_compound_properties. " +
    'Example: {"cid":2244,"size":"large"}',
  input,
  output,
  annotations: READS_LOCAL,
  examples: [{ cid: 2244 }, { cid: 3672, size: "small" }],
  run(args, ctx) {
    return Promise.resolve({ cid: args.cid, imageUrl: compoundImageUrl(ctx, args.cid, args.size) });
  },
  render: (r) => `CID ${r.cid}: ${r.imageUrl}`,
});
