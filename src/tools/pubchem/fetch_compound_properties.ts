/** The `fetch_compound_properties` tool: Fetch PubChem compound properties. */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchProperties } from "../../sources/pubchem/compounds.ts";
import { COMPOUND_PROPERTIES } from "../../sources/pubchem/types.ts";
import { cidSchema } from "./shared.ts";
import { count, recordSection, textBlock } from "../../render/markdown.ts";
import { structureImageLine } from "./render.ts";

/** Most CIDs accepted in one call: five paced PubChem requests of 200. */
const MAX_CIDS = 1000;

const input = z.object({
  cids: z.array(cidSchema).min(1).max(MAX_CIDS).describe("PubChem Compound IDs"),
  properties: z.array(z.enum(COMPOUND_PROPERTIES)).min(1).describe(
    "ConnectivitySMILES: no stereo; older SMILES names accepted",
  ),
});

const text = () => z.string().optional();
const num = () => z.number().optional();
const int = () => z.number().int().optional();

const compoundProperties = z.object({
  CID: z.number().int().describe("The PubChem Compound ID."),
  MolecularFormula: text(),
  MolecularWeight: num().describe("g/mol"),
  SMILES: text(),
  ConnectivitySMILES: text(),
  CanonicalSMILES: text(),
  IsomericSMILES: text(),
  InChI: text(),
  InChIKey: text(),
  IUPACName: text(),
  Title: text(),
  XLogP: num(),
  ExactMass: num(),
  MonoisotopicMass: num(),
  TPSA: num().describe("Topological polar surface area, Å²"),
  Complexity: num(),
  Charge: int(),
  HBondDonorCount: int(),
  HBondAcceptorCount: int(),
  RotatableBondCount: int(),
  HeavyAtomCount: int(),
  CovalentUnitCount: int(),
  notFound: z.literal(true).optional().describe("Present (true) when PubChem has no compound with this CID."),
}).describe("The requested properties of one compound; a property PubChem does not compute for it is absent.");

const output = z.object({
  results: z.array(compoundProperties).describe("One entry per requested CID (duplicates merged), in request order."),
  notFoundCids: z.array(z.number().int()).describe("Requested CIDs PubChem does not know (also flagged in results)."),
  warnings: z.array(z.string()).optional().describe(
    "Rows PubChem sent in an unexpected shape: kept as far as they read, each named with what differs",
  ),
});

export const fetchCompoundProperties = defineTool({
  name: "fetch_compound_properties",
  title: "PubChem compound properties",
  toolset: "pubchem",
  description: "Properties of PubChem CIDs (formula, weight, SMILES, InChIKey, IUPAC name, XLogP, TPSA…); unknown " +
    'CIDs in notFoundCids. Example: {"cids":[2244],"properties":["MolecularFormula","SMILES"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { cids: [2244, 3672], properties: ["MolecularFormula", "MolecularWeight", "SMILES", "XLogP"] },
    { cids: [2244], properties: ["IUPACName", "InChIKey", "CanonicalSMILES", "TPSA", "HBondDonorCount"] },
  ],
  async run(args, ctx) {
    const batch = await fetchProperties(ctx, args.cids, args.properties);
    if (batch.notFound.length === batch.rows.length) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `PubChem has no compound for CID${batch.notFound.length === 1 ? "" : "s"} ${batch.notFound.join(", ")}.`,
        "Check the CIDs; resolve names or structures to CIDs with search_compound_by_identifier.",
      );
    }
    const missing = new Set(batch.notFound);
    return {
      results: batch.rows.map((row) => missing.has(row.CID) ? { CID: row.CID, notFound: true as const } : row),
      notFoundCids: batch.notFound,
      ...(batch.warnings.length ? { warnings: batch.warnings } : {}),
    };
  },
  render: (r) =>
    textBlock(
      `Properties of ${count(r.results.length - r.notFoundCids.length, "PubChem compound")}.`,
      r.notFoundCids.length > 0 && `notFoundCids: ${r.notFoundCids.join(", ")}`,
      r.results.flatMap((row) =>
        row.notFound ? ["", `## CID ${row.CID}: not found`] : recordSection(`CID ${row.CID}`, row, { omit: ["CID"] })
      ),
      "",
      structureImageLine(r.results.filter((row) => !row.notFound).map((row) => row.CID)),
      (r.warnings ?? []).map((w) => `warning: ${w}`),
    ),
});
