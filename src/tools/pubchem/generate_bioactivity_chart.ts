/** generate_bioactivity_chart: a compound's active/inactive/inconclusive assays per target, as a chart and a table. */
import { z } from "../../core/zod.ts";
import { ToolError, UpstreamError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, withContent } from "../tool_def.ts";
import { fetchTargetOutcomes, type TargetOutcomes } from "../../sources/pubchem/target_outcomes.ts";
import { fetchProperties } from "../../sources/pubchem/compounds.ts";
import { stackedBarsSvg } from "../../render/chart/stacked_bars.ts";
import { chartImageSchema, drawChart, imageLine } from "../chart_image.ts";
import { markdownTable } from "../../render/markdown_table.ts";
import { cidSchema } from "./shared.ts";

/** Okabe–Ito colours: vermillion, sky blue and orange stay apart for every common colour-vision deficiency. */
const PARTS = [
  { name: "active", color: "#D55E00" },
  { name: "inactive", color: "#56B4E9" },
  { name: "inconclusive", color: "#E69F00" },
] as const;

const input = z.object({
  cid: cidSchema.describe("PubChem CID"),
  top: z.number().int().min(1).max(20).default(10).describe("Targets, most active first"),
});

const output = z.object({
  cid: z.number().int(),
  name: z.string().optional().describe("PubChem's name for the compound (the chart's title)."),
  targets: z.array(z.object({
    label: z.string().describe("Gene symbol (or gene id / accession) as drawn."),
    geneId: z.number().int().optional().describe("NCBI Gene ID (get_gene takes NCBIGene:<id>)."),
    accession: z.string().optional(),
    name: z.string().optional(),
    active: z.number().int(),
    inactive: z.number().int(),
    inconclusive: z.number().int(),
    unspecified: z.number().int().describe("Not drawn."),
    tested: z.number().int().describe("Assays against this target."),
  })).describe("Charted targets, most active assays first."),
  totalTargets: z.number().int().describe("Targets in all (more than charted when top cuts)."),
  targetedAssays: z.number().int().describe("Assays with a molecular target."),
  image: chartImageSchema,
});

export const generateBioactivityChart = defineTool({
  name: "generate_bioactivity_chart",
  title: "PubChem bioactivity chart",
  toolset: "pubchem",
  description: "Charts a compound's PubChem assays per target (active, inactive, inconclusive; stacked): " +
    'PNG image, Markdown table, SVG resource. Example: {"cid":2244}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ cid: 2244, top: 10 }],
  async run(args, ctx) {
    const [summary, name] = await Promise.all([
      fetchTargetOutcomes(ctx, args.cid, args.top),
      compoundName(ctx, args.cid),
    ]);
    if (summary.targets.length === 0) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `None of CID ${args.cid}'s PubChem assays names a molecular target, so there is nothing to chart.`,
        "See its assays with fetch_compound_bioactivity (cell-based and phenotypic assays have no target).",
      );
    }
    const targets = summary.targets.map((t) => ({ label: targetLabel(t), ...t }));
    const svg = stackedBarsSvg({
      title: `${compound(args.cid, name)}: PubChem assays by target (top ${targets.length} of ${summary.totalTargets})`,
      xTitle: "Assays (count)",
      parts: [...PARTS],
      rows: targets.map((t) => ({ label: t.label, values: PARTS.map((p) => t[p.name]) })),
    });
    const { image, block } = await drawChart(ctx, "pubchem", svg);
    const { totalTargets, targetedAssays } = summary;
    return withContent(
      { cid: args.cid, ...(name ? { name } : {}), targets, totalTargets, targetedAssays, image },
      [block],
    );
  },
  render(r) {
    return [
      `# Bioactivity of ${compound(r.cid, r.name)} by target: ${r.targets.length} of ${r.totalTargets} targets ` +
      `(${r.targetedAssays} assays with a target)`,
      markdownTable(
        ["Target", "Gene ID", "Accession", "Name", "Active", "Inactive", "Inconclusive", "Unspecified", "Tested"],
        r.targets.map((t) => [
          t.label,
          t.geneId === undefined ? undefined : `NCBIGene:${t.geneId}`,
          t.accession,
          t.name,
          t.active,
          t.inactive,
          t.inconclusive,
          t.unspecified,
          t.tested,
        ]),
      ),
      imageLine(r.image),
    ].join("\n");
  },
});

function targetLabel(t: TargetOutcomes): string {
  return t.symbol ?? (t.geneId !== undefined ? `NCBIGene:${t.geneId}` : t.accession ?? "unknown target");
}

/** "Aspirin (CID 2244)", or "CID 2244" when PubChem gave no name. */
function compound(cid: number, name: string | undefined): string {
  return name ? `${name} (CID ${cid})` : `CID ${cid}`;
}

/** The compound's PubChem title for the chart's heading (#34); a failed lookup leaves the CID alone. */
async function compoundName(ctx: Parameters<typeof fetchProperties>[0], cid: number): Promise<string | undefined> {
  try {
    const title = (await fetchProperties(ctx, [cid], ["Title"])).rows[0]?.Title;
    return typeof title === "string" && title.trim() ? title.trim() : undefined;
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === "aborted") throw error;
    return undefined;
  }
}
