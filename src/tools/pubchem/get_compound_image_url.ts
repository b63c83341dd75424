/** get_compound_image_url: the depiction URL of a compound and, by default, the PNG itself as an image block. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK, withContent } from "../tool_def.ts";
import { compoundImageUrl } from "../../sources/pubchem/client.ts";
import { fetchDepiction } from "../../sources/pubchem/depiction.ts";
import { cidSchema } from "./shared.ts";

const input = z.object({
  cid: cidSchema.describe("PubChem CID, e.g. 2244"),
  size: z.enum(["small", "large"]).default("large").describe("small: 100x100 px, large: 300x300 px"),
  inline: z.boolean().default(true).describe("false: URL only, no request"),
});

const output = z.object({
  cid: z.number().int(),
  imageUrl: z.url().describe("A direct URL to the PNG image of the compound's 2D structure."),
  bytes: z.number().int().optional().describe("Size of the attached PNG; width and height in pixels (inline only)."),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});

export const getCompoundImageUrl = defineTool({
  name: "get_compound_image_url",
  title: "PubChem structure image",
  toolset: "pubchem",
  description: "A compound's 2D structure, to look at or show it: PubChem PNG image block plus its URL. Also " +
    'resource pubchem://compound/{cid}/image. Example: {"cid":2244,"size":"large"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ cid: 2244 }, { cid: 2244, size: "small" }],
  async run(args, ctx) {
    const imageUrl = compoundImageUrl(ctx, args.cid, args.size);
    if (!args.inline) return { cid: args.cid, imageUrl };
    const png = await fetchDepiction(ctx, args.cid, args.size);
    const result = { cid: args.cid, imageUrl, bytes: png.bytes.length, width: png.width, height: png.height };
    return withContent(result, [{ type: "image", data: png.bytes.toBase64(), mimeType: "image/png" }]);
  },
  render(r) {
    const image = r.bytes === undefined
      ? "image: not attached (inline false); open the url to see it"
      : `image: attached below (image/png, ${r.width}×${r.height} px, ${r.bytes} bytes)`;
    return `## Structure of CID ${r.cid}\n${image}\nurl: ${r.imageUrl}`;
  },
});
