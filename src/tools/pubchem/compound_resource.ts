/**
 * `pubchem://compound/{cid}`: a compact compound summary an agent can keep in context across tool calls
 * (identity, key properties, a few names, the depiction URL) instead of re-fetching properties.
 */
import { invalidInput, ToolError } from "../../core/errors.ts";
import type { ResourceDef } from "../tool_def.ts";
import { compoundImageUrl } from "../../sources/pubchem/client.ts";
import { fetchProperties, fetchSynonyms } from "../../sources/pubchem/compounds.ts";
import type { CompoundProperty } from "../../sources/pubchem/types.ts";

const SUMMARY_PROPERTIES: CompoundProperty[] = [
  "Title",
  "IUPACName",
  "MolecularFormula",
  "MolecularWeight",
  "SMILES",
  "InChIKey",
  "XLogP",
  "TPSA",
  "HBondDonorCount",
  "HBondAcceptorCount",
];
const SYNONYMS_SHOWN = 10;

export const compoundResource: ResourceDef = {
  toolset: "pubchem",
  name: "pubchem-compound",
  title: "PubChem compound summary",
  description: "A compact JSON summary of one PubChem compound: title, IUPAC name, formula, molecular weight, " +
    "SMILES, InChIKey, XLogP, TPSA, H-bond donors/acceptors, the first synonyms and the structure image URL. " +
    "Example URI: pubchem://compound/2244",
  mimeType: "application/json",
  uriTemplate: "pubchem://compound/{cid}",
  async read(uri, params, ctx) {
    const raw = params.cid ?? "";
    const cid = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(cid) || cid <= 0) {
      throw invalidInput("cid", "must be a positive integer CID, as in pubchem://compound/2244", raw);
    }
    const [batch, synonyms] = await Promise.all([
      fetchProperties(ctx, [cid], SUMMARY_PROPERTIES),
      fetchSynonyms(ctx, cid),
    ]);
    if (batch.notFound.includes(cid)) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `PubChem has no compound with CID ${cid}.`,
        "Resolve the compound to a CID with search_compound_by_identifier.",
      );
    }
    const p = batch.rows[0];
    const summary = {
      cid,
      title: p.Title,
      iupacName: p.IUPACName,
      molecularFormula: p.MolecularFormula,
      molecularWeight: p.MolecularWeight,
      smiles: p.SMILES,
      inchiKey: p.InChIKey,
      xlogp: p.XLogP,
      tpsa: p.TPSA,
      hBondDonors: p.HBondDonorCount,
      hBondAcceptors: p.HBondAcceptorCount,
      synonyms: synonyms.slice(0, SYNONYMS_SHOWN),
      synonymCount: synonyms.length,
      imageUrl: compoundImageUrl(ctx, cid, "large"),
      pubchemUrl: `https://pubchem.ncbi.nlm.nih.gov/compound/${cid}`,
      ...(batch.warnings.length ? { warnings: batch.warnings } : {}),
    };
    return [{ uri, mimeType: "application/json", text: JSON.stringify(summary) }];
  },
};
