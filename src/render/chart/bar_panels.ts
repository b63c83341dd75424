/**
 * Vertical bar charts of the same categories (compounds) in one to four panels, one per measure: each
 * panel has its own value axis and unit, so a molecular weight of 300 never flattens an XLogP of 2.
 */
import {
  type Area,
  fitText,
  formatTick,
  HEIGHT,
  niceTicks,
  PALETTE,
  rect,
  scale,
  svgDocument,
  text,
  textWidth,
  valueAxisY,
  WIDTH,
} from "./svg.ts";

export interface BarPanel {
  /** The measure and its unit, e.g. "TPSA (Å²)". */
  title: string;
  /** One per category; undefined draws no bar and says "n/a". */
  values: (number | undefined)[];
}

export interface BarPanelsSpec {
  title: string;
  categories: string[];
  panels: BarPanel[];
}

const LABEL_SIZE = 10;
const ROTATION = 40;

export function barPanelsSvg(spec: BarPanelsSpec): string {
  const cols = spec.panels.length === 1 ? 1 : 2;
  const rows = spec.panels.length <= 2 ? 1 : 2;
  const cellWidth = WIDTH / cols;
  const cellHeight = (HEIGHT - 36) / rows;
  const body = spec.panels.flatMap((panel, i) =>
    panelSvg(spec.categories, panel, PALETTE[i % PALETTE.length], {
      left: (i % cols) * cellWidth,
      top: 36 + Math.floor(i / cols) * cellHeight,
      width: cellWidth,
      height: cellHeight,
    })
  );
  return svgDocument(spec.title, body);
}

function panelSvg(categories: string[], panel: BarPanel, color: string, cell: Area): string[] {
  const plotLeft = cell.left + 52;
  const plotWidth = cell.width - 52 - 12;
  const slot = plotWidth / categories.length;
  const widest = Math.max(...categories.map((c) => textWidth(c, LABEL_SIZE)));
  const horizontal = widest <= slot - 4;
  // Rotated labels get at most 40 % of the cell's height; longer names are cut to that.
  const labelRoom = horizontal ? 16 : Math.min(cell.height * 0.4, widest * Math.sin(ROTATION * Math.PI / 180) + 14);
  const maxLabel = horizontal ? slot - 4 : (labelRoom - 10) / Math.sin(ROTATION * Math.PI / 180);
  const area: Area = { left: plotLeft, top: cell.top + 26, width: plotWidth, height: 0 };
  area.height = cell.top + cell.height - labelRoom - 8 - area.top;

  const present = panel.values.filter((v): v is number => v !== undefined);
  // 10 % headroom, so the value printed above the tallest bar stays clear of the panel title.
  const ticks = niceTicks(Math.min(0, ...present) * 1.1, Math.max(0, ...present) * 1.1, 4);
  const y = scale(ticks[0], ticks.at(-1)!, area.top + area.height, area.top);
  const out = [
    text(cell.left + cell.width / 2, cell.top + 14, fitText(panel.title, 12, cell.width - 8), {
      size: 12,
      anchor: "middle",
      weight: 700,
    }),
    ...valueAxisY(area, ticks, y),
  ];
  const barWidth = Math.min(slot * 0.7, 48);
  categories.forEach((category, i) => {
    const cx = area.left + slot * (i + 0.5);
    const value = panel.values[i];
    if (value === undefined) {
      out.push(text(cx, y(0) - 4, "n/a", { size: 9, anchor: "middle", fill: "#666" }));
    } else {
      const top = Math.min(y(value), y(0));
      out.push(rect(cx - barWidth / 2, top, barWidth, Math.abs(y(value) - y(0)), color));
      if (slot >= textWidth(formatTick(value), 9) + 2) {
        const above = value >= 0 ? y(value) - 3 : y(value) + 11;
        out.push(text(cx, above, formatTick(value), { size: 9, anchor: "middle", fill: "#333" }));
      }
    }
    const label = fitText(category, LABEL_SIZE, maxLabel);
    const baseline = area.top + area.height + 14;
    out.push(
      horizontal
        ? text(cx, baseline, label, { size: LABEL_SIZE, anchor: "middle", fill: "#333" })
        : text(cx + 3, baseline - 4, label, { size: LABEL_SIZE, anchor: "end", fill: "#333", rotate: -ROTATION }),
    );
  });
  return out;
}
