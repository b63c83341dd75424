/** `pubchem://compound/{cid}/image`: the compound's large PNG depiction as a blob, for clients that show resources. */
import { invalidInput } from "../../core/errors.ts";
import type { ResourceDef } from "../tool_def.ts";
import { fetchDepiction } from "../../sources/pubchem/depiction.ts";

export const compoundImageResource: ResourceDef = {
  toolset: "pubchem",
  name: "pubchem-compound-image",
  title: "PubChem structure image",
  description: "The 2D structure depiction of one PubChem compound as a 300x300 PNG (blob), the same picture " +
    "get_compound_image_url attaches. Example URI: pubchem://compound/2244/image",
  mimeType: "image/png",
  uriTemplate: "pubchem://compound/{cid}/image",
  async read(uri, params, ctx) {
    const raw = params.cid ?? "";
    const cid = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(cid) || cid <= 0) {
      throw invalidInput("cid", "must be a positive integer CID, as in pubchem://compound/2244/image", raw);
    }
    const png = await fetchDepiction(ctx, cid, "large");
    return [{ uri, mimeType: "image/png", blob: png.bytes.toBase64() }];
  },
};
