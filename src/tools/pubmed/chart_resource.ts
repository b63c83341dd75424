/** `pubmed://chart/{id}`: the SVG of a publication trend chart. */
import { chartResource } from "../charts/chart_resource.ts";

export const pubmedChartResource = chartResource("pubmed", "pubmed", "generate_publication_trend");
