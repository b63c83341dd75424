/** One SVG of every chart kind the tools draw, with the text they print (accents, units, Greek, long labels). */
import { barPanelsSvg } from "../../../src/render/chart/bar_panels.ts";
import { scatterSvg } from "../../../src/render/chart/scatter_chart.ts";
import { stackedBarsSvg } from "../../../src/render/chart/stacked_bars.ts";
import { PALETTE } from "../../../src/render/chart/svg.ts";
import { yearSeriesSvg } from "../../../src/render/chart/year_series.ts";

const years = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ year: from + i, count: Math.round(120 * 1.18 ** i) }));

export const SAMPLE_CHARTS: Record<string, string> = {
  "trend line, partial year": yearSeriesSvg({
    title: "PubMed articles per year: CRISPR AND (Cas9 OR Cas12a)",
    yTitle: "Articles (count)",
    kind: "line",
    points: years(2007, 2026),
    partialYear: 2026,
  }),
  "trend bars, partial year": yearSeriesSvg({
    title: "OpenAlex works per year: malaria vaccine",
    yTitle: "Works (count)",
    kind: "bar",
    points: years(1990, 2026),
    partialYear: 2026,
  }),
  "compound bars": barPanelsSvg({
    title: "Compound properties: aspirin, caffeine, ibuprofen, α-tocopherol",
    categories: ["aspirin", "caffeine", "ibuprofen", "α-tocopherol"],
    panels: [
      { title: "Molecular weight (g/mol)", values: [180.16, 194.19, 206.28, 430.7] },
      { title: "XLogP", values: [1.2, -0.1, 3.5, undefined] },
      { title: "TPSA (Å²)", values: [63.6, 58.4, 37.3, 29.5] },
      { title: "H-bond donors", values: [1, 0, 1, 1] },
    ],
  }),
  "compound scatter": scatterSvg({
    title: "XLogP vs molecular weight",
    xTitle: "Molecular weight (g/mol)",
    yTitle: "XLogP",
    points: [
      { label: "aspirin", x: 180.16, y: 1.2 },
      { label: "caffeine", x: 194.19, y: -0.1 },
      { label: "ibuprofen", x: 206.28, y: 3.5 },
      { label: "β-carotene", x: 536.9, y: 15.5 },
      { label: "paracétamol", x: 151.16, y: 0.5 },
    ],
  }),
  "bioactivity stacked bars": stackedBarsSvg({
    title: "Bioactivity of CID 2244 by target (top 5 by active assays)",
    xTitle: "Assays (count)",
    parts: [
      { name: "active", color: PALETTE[2] },
      { name: "inactive", color: PALETTE[7] },
      { name: "inconclusive", color: PALETTE[1] },
    ],
    rows: [
      { label: "Prostaglandin G/H synthase 1 (PTGS1)", values: [24, 3, 1] },
      { label: "Prostaglandin G/H synthase 2", values: [17, 6, 0] },
      { label: "TNF-α", values: [4, 12, 2] },
      { label: "IL-1β", values: [3, 0, 0] },
      { label: "µ-opioid receptor", values: [1, 9, 4] },
    ],
  }),
};
