/** The `search_compound_by_identifier` tool: Find PubChem CIDs by name, SMILES or InChIKey. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { lookupCids } from "../../sources/pubchem/compounds.ts";
import { checkInchiKey, checkSmiles, cidListSchema } from "./shared.ts";
import { count, textBlock } from "../../render/markdown.ts";
import { structureImageLine } from "./render.ts";

const input = z.object({
  identifierType: z.enum(["name", "smiles", "inchikey"]).describe("name also covers CAS numbers"),
  identifier: z.string().trim().min(1).max(4000).describe("e.g. aspirin, CC(=O)OC1=CC=CC=C1C(=O)O"),
});

const output = z.object({
  cids: cidListSchema.describe("Matching PubChem Compound IDs (CIDs); often exactly one."),
});

export const searchCompoundByIdentifier = defineTool({
  name: "search_compound_by_identifier",
  title: "Find PubChem CIDs",
  toolset: "pubchem",
  description:
    "First step of most compound work: a chemical name, CAS number, SMILES or InChIKey to PubChem CIDs (exact " +
    'match). Example: {"identifierType":"name","identifier":"aspirin"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { identifierType: "name", identifier: "aspirin" },
    { identifierType: "smiles", identifier: "CC(=O)OC1=CC=CC=C1C(=O)O" },
    { identifierType: "inchikey", identifier: "BSYNRYMUTXBXSQ-UHFFFAOYSA-N" },
  ],
  async run(args, ctx) {
    let identifier = args.identifier;
    const fields = { identifier: args.identifier, identifierType: args.identifierType };
    if (args.identifierType === "inchikey") identifier = checkInchiKey(identifier, fields);
    if (args.identifierType === "smiles") checkSmiles(identifier, fields);
    return { cids: await lookupCids(ctx, args.identifierType, identifier) };
  },
  render: (r) => textBlock(`${count(r.cids.length, "PubChem CID")}: ${r.cids.join(", ")}`, structureImageLine(r.cids)),
});
