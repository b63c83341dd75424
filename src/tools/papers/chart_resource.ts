/** `papers://chart/{id}`: the SVG of a publication trend chart. */
import { chartResource } from "../chart_resource.ts";

export const papersChartResource = chartResource("papers", "papers", "generate_publication_trend");
