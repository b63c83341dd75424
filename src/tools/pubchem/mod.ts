/** The pubchem toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../tool_def.ts";
import { pubchemChartResource } from "./chart_resource.ts";
import { compoundImageResource } from "./compound_image_resource.ts";
import { compoundResource } from "./compound_resource.ts";
import { fetchAssaySummary } from "./fetch_assay_summary.ts";
import { fetchCompoundBioactivity } from "./fetch_compound_bioactivity.ts";
import { fetchCompoundProperties } from "./fetch_compound_properties.ts";
import { fetchCompoundSafety } from "./fetch_compound_safety.ts";
import { fetchCompoundXrefs } from "./fetch_compound_xrefs.ts";
import { fetchSubstanceDetails } from "./fetch_substance_details.ts";
import { generateBioactivityChart } from "./generate_bioactivity_chart.ts";
import { generateCompoundChart } from "./generate_compound_chart.ts";
import { getCompoundImageUrl } from "./get_compound_image_url.ts";
import { searchAssaysByTarget } from "./search_assays_by_target.ts";
import { searchCompoundByIdentifier } from "./search_compound_by_identifier.ts";
import { searchCompoundsByFormula } from "./search_compounds_by_formula.ts";
import { searchCompoundsBySimilarity } from "./search_compounds_by_similarity.ts";
import { searchCompoundsByStructure } from "./search_compounds_by_structure.ts";
import { wrongCidHint } from "./cid_hint.ts";

/** Every pubchem tool answers a compound name given as a CID with the call that finds the CID. */
export const pubchemTools: AnyToolDef[] = ([
  searchCompoundByIdentifier,
  fetchCompoundProperties,
  getCompoundImageUrl,
  searchCompoundsByStructure,
  searchCompoundsBySimilarity,
  searchCompoundsByFormula,
  fetchSubstanceDetails,
  fetchAssaySummary,
  searchAssaysByTarget,
  fetchCompoundXrefs,
  fetchCompoundSafety,
  fetchCompoundBioactivity,
  generateCompoundChart,
  generateBioactivityChart,
] as AnyToolDef[]).map((def) => ({ ...def, inputHint: wrongCidHint }));
export const pubchemResources: ResourceDef[] = [compoundResource, compoundImageResource, pubchemChartResource];
