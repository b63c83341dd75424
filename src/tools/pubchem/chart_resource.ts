/** `pubchem://chart/{id}`: the SVG of a compound or bioactivity chart. */
import { chartResource } from "../chart_resource.ts";

export const pubchemChartResource = chartResource(
  "pubchem",
  "pubchem",
  "generate_compound_chart or generate_bioactivity_chart",
);
