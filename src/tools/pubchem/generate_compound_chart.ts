/** generate_compound_chart: numeric properties of 2–10 compounds as a bar or scatter chart (PNG), with the table. */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { defineTool, READS_NETWORK, withContent } from "../tool_def.ts";
import { fetchProperties } from "../../sources/pubchem/compounds.ts";
import type { NumericProperty } from "../../sources/pubchem/types.ts";
import { barPanelsSvg } from "../../render/chart/bar_panels.ts";
import { scatterSvg } from "../../render/chart/scatter_chart.ts";
import { chartImageSchema, drawChart, imageLine } from "../chart_image.ts";
import { markdownTable } from "../../render/markdown_table.ts";
import { cidSchema, incoherent } from "./shared.ts";

/** Chartable properties with the axis title each gets (unit in brackets). */
const AXIS_TITLES = {
  MolecularWeight: "Molecular weight (g/mol)",
  XLogP: "XLogP (log P, unitless)",
  TPSA: "TPSA (Å²)",
  HBondDonorCount: "H-bond donors (count)",
  HBondAcceptorCount: "H-bond acceptors (count)",
  RotatableBondCount: "Rotatable bonds (count)",
  HeavyAtomCount: "Heavy atoms (count)",
} as const satisfies Partial<Record<NumericProperty, string>>;
type ChartProperty = keyof typeof AXIS_TITLES;
const CHART_PROPERTIES = Object.keys(AXIS_TITLES) as [ChartProperty, ...ChartProperty[]];

const input = z.object({
  cids: z.array(cidSchema).min(2).max(10).describe("In drawing order"),
  properties: z.array(z.enum(CHART_PROPERTIES)).min(1).max(4).describe("scatter: exactly 2 (x, y)"),
  kind: z.enum(["bar", "scatter"]).default("bar").describe("Chart"),
});

const output = z.object({
  kind: z.enum(["bar", "scatter"]),
  properties: z.array(z.string()).describe("Charted properties, in panel (or x, y) order."),
  rows: z.array(z.object({
    CID: z.number().int(),
    Title: z.string().optional().describe("PubChem's name for the compound (the chart's label)."),
    values: z.record(z.string(), z.number()).describe("Property → value; a property PubChem lacks is absent."),
  })).describe("One row per charted compound, in request order."),
  notFoundCids: z.array(z.number().int()).describe("CIDs PubChem does not know (not charted)."),
  image: chartImageSchema,
  warnings: z.array(z.string()).optional().describe("Rows PubChem sent in an unexpected shape (kept as far as read)"),
});

export const generateCompoundChart = defineTool({
  name: "generate_compound_chart",
  title: "PubChem compound chart",
  toolset: "pubchem",
  description: "Charts compounds by numeric properties (bar: a panel each; scatter: x vs y): PNG image, " +
    "Markdown table, SVG resource. Example: " +
    '{"cids":[2244,3672],"properties":["XLogP","TPSA"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { cids: [2244, 3672, 5564], properties: ["MolecularWeight", "XLogP", "TPSA", "HBondDonorCount"] },
    { cids: [2244, 3672, 5564], properties: ["XLogP", "TPSA"], kind: "scatter" },
  ],
  async run(args, ctx) {
    const properties = [...new Set(args.properties)];
    if (args.kind === "scatter" && properties.length !== 2) {
      throw incoherent(
        { kind: args.kind, properties: args.properties },
        "a scatter chart takes exactly 2 different properties (x, then y)",
        'Pass two properties, e.g. ["XLogP","TPSA"], or kind "bar" for 1–4.',
      );
    }
    const batch = await fetchProperties(ctx, args.cids, [...properties, "Title"]);
    const missing = new Set(batch.notFound);
    const rows = batch.rows.filter((row) => !missing.has(row.CID)).map((row) => ({
      CID: row.CID,
      ...(row.Title ? { Title: row.Title } : {}),
      values: Object.fromEntries(properties.flatMap((p) => row[p] === undefined ? [] : [[p, row[p]!]])),
    }));
    if (rows.length === 0) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `PubChem has no compound for CIDs ${batch.notFound.join(", ")}.`,
        "Check the CIDs; resolve names to CIDs with search_compound_by_identifier.",
      );
    }
    const labels = rows.map((row) => row.Title ?? `CID ${row.CID}`);
    const title = `Properties of ${labels.join(", ")}`;
    const svg = args.kind === "scatter" ? scatterSvg(scatterSpec(title, labels, rows, properties)) : barPanelsSvg({
      title,
      categories: labels,
      panels: properties.map((p) => ({ title: AXIS_TITLES[p], values: rows.map((row) => row.values[p]) })),
    });
    const { image, block } = await drawChart(ctx, "pubchem", svg);
    const warnings = batch.warnings.length ? { warnings: batch.warnings } : {};
    return withContent({ kind: args.kind, properties, rows, notFoundCids: batch.notFound, image, ...warnings }, [
      block,
    ]);
  },
  render(r) {
    return [
      `# Compound chart (${r.kind}): ${r.properties.join(", ")}`,
      markdownTable(
        ["CID", "Title", ...r.properties.map((p) => AXIS_TITLES[p as ChartProperty] ?? p)],
        r.rows.map((row) => [row.CID, row.Title, ...r.properties.map((p) => row.values[p])]),
      ),
      ...(r.notFoundCids.length ? [`notFoundCids (not charted): ${r.notFoundCids.join(", ")}`] : []),
      imageLine(r.image),
      ...(r.warnings ?? []).map((w) => `warning: ${w}`),
    ].join("\n");
  },
});

function scatterSpec(
  title: string,
  labels: string[],
  rows: { values: Record<string, number> }[],
  [xProperty, yProperty]: ChartProperty[],
) {
  const points = rows.flatMap((row, i) => {
    const x = row.values[xProperty];
    const y = row.values[yProperty];
    return x === undefined || y === undefined ? [] : [{ label: labels[i], x, y }];
  });
  if (points.length === 0) {
    throw new ToolError(
      "ENTITY_NOT_FOUND",
      `PubChem computes ${xProperty} and ${yProperty} for none of these compounds.`,
      'Choose other properties, or kind "bar", which draws what is there.',
    );
  }
  return { title, xTitle: AXIS_TITLES[xProperty], yTitle: AXIS_TITLES[yProperty], points };
}
