/** compound_dossier: identity, properties, safety, bioactivity and literature of one compound. */
import { pubchemProperties } from "./completions.ts";
import { call, definePrompt, numberSlot } from "./prompt_def.ts";

const DEFAULT_PROPERTIES = ["MolecularFormula", "MolecularWeight", "IUPACName", "SMILES", "InChIKey", "XLogP", "TPSA"];

export const compoundDossier = definePrompt({
  name: "compound_dossier",
  title: "Compound dossier",
  description: "Resolve a compound in PubChem and assemble a dossier: identity, computed properties, GHS " +
    "safety, assay activity and key literature.",
  toolsets: ["pubchem"],
  arguments: [
    { name: "compound", description: "Name, SMILES or InChIKey, e.g. aspirin", required: true },
    {
      name: "properties",
      description: "Comma-separated PubChem properties, e.g. MolecularWeight,XLogP",
      required: false,
      complete: pubchemProperties,
    },
  ],
  example: { compound: "aspirin", properties: "MolecularWeight,XLogP,TPSA" },
  render(args, tools) {
    const properties = (args.properties ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    const type = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(args.compound.trim())
      ? "inchikey"
      : /[=#()[\]@]/.test(args.compound)
      ? "smiles"
      : "name";
    const steps = [
      `${call("search_compound_by_identifier", { identifierType: type, identifier: args.compound })} to get the CID.`,
      `${
        call("fetch_compound_properties", {
          cids: [numberSlot("CID")],
          properties: properties.length ? properties : DEFAULT_PROPERTIES,
        })
      }.`,
      tools.has("fetch_compound_safety")
        ? `${call("fetch_compound_safety", { cid: numberSlot("CID") })} for GHS pictograms, signal word, ` +
          "H- and P-statements with their sources."
        : "",
      tools.has("fetch_compound_bioactivity")
        ? `${call("fetch_compound_bioactivity", { cid: numberSlot("CID") })} for active/inactive assay ` +
          "counts and the top targets."
        : "",
      `${
        call("fetch_compound_xrefs", { cid: numberSlot("CID"), xrefTypes: ["PubMedID", "RN"] })
      } for literature and the CAS number.`,
      tools.has("searchPubMedArticles")
        ? `${
          call("searchPubMedArticles", {
            queryTerm: `${args.compound}[Title/Abstract]`,
            filterByPublicationTypes: ["Review"],
            maxResults: 5,
            fetchBriefSummaries: 5,
          })
        } for reviews.`
        : "",
    ].filter(Boolean);
    return [
      `Prepare a dossier on the compound "${args.compound}".`,
      "",
      "Use these tool calls (replace <CID> with the CID number from step 1, unquoted; if step 1 finds several, say " +
      "so and use the first):",
      ...steps.map((s, i) => `${i + 1}. ${s}`),
      "",
      "Write: ## Identity (CID, names, formula, identifiers), ## Properties (a table with units), ## Safety, " +
      "## Bioactivity, ## Literature. State the source of each fact and mark anything PubChem did not provide as " +
      "unknown rather than guessing.",
    ].join("\n");
  },
});
