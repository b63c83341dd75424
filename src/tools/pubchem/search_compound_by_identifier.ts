import { z } from "zod";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { lookupCids } from "../../sources/pubchem/compounds.ts";
import { checkInchiKey, checkSmiles, cidListSchema } from "./shared.ts";

const input = z.object({
  identifierType: z.enum(["name", "smiles", "inchikey"]).describe(
    "The type of identifier provided: 'name' (common, trade or IUPAC name, CAS number), 'smiles' or 'inchikey'.",
  ),
  identifier: z.string().trim().min(1).max(4000).describe(
    "The identifier string, e.g. 'aspirin', 'CC(=O)OC1=CC=CC=C1C(=O)O' or 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N'.",
  ),
});

const output = z.object({
  cids: cidListSchema.describe("Matching PubChem Compound IDs (CIDs); often exactly one."),
});

export const searchCompoundByIdentifier = defineTool({
  name: "search_compound_by_identifier",
  title: "Find PubChem CIDs by name, SMILES or InChIKey",
  toolset: "pubchem",
  description: "Resolves a chemical name, SMILES string or InChIKey to PubChem Compound IDs (CIDs): the entry " +
    "point of most compound workflows (then fetch_compound_properties, fetch_compound_xrefs, " +
    "get_compound_image_url). Exact lookup only: for related structures use search_compounds_by_similarity or " +
    "search_compounds_by_structure. SMILES and names with special characters are sent intact. Unknown " +
    'identifiers give ENTITY_NOT_FOUND. Example: {"identifierType":"name","identifier":"aspirin"}',
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
  render: (r) => `${r.cids.length} PubChem CID${r.cids.length === 1 ? "" : "s"}: ${r.cids.join(", ")}`,
});
