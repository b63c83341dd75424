/**
 * Horizontal stacked bars, one row per category (targets), one segment per part (active, inactive,
 * inconclusive): long names read along the row, cut to the left margin, never rotated or overlapping.
 */
import {
  type Area,
  fitText,
  HEIGHT,
  legend,
  niceTicks,
  rect,
  scale,
  svgDocument,
  text,
  textWidth,
  valueAxisX,
  WIDTH,
} from "./svg.ts";

export interface StackedBarsSpec {
  title: string;
  /** The value axis, with its unit, e.g. "assays". */
  xTitle: string;
  parts: { name: string; color: string }[];
  /** values[i] has one number per part. */
  rows: { label: string; values: number[] }[];
}

const LABEL_SIZE = 11;
const MAX_LABEL_WIDTH = 180;

export function stackedBarsSvg(spec: StackedBarsSpec): string {
  const labelWidth = Math.min(MAX_LABEL_WIDTH, Math.max(...spec.rows.map((row) => textWidth(row.label, LABEL_SIZE))));
  const area: Area = { left: labelWidth + 16, top: 62, width: 0, height: HEIGHT - 62 - 44 };
  area.width = WIDTH - area.left - 20;
  const totals = spec.rows.map((row) => row.values.reduce((a, b) => a + b, 0));
  const ticks = niceTicks(0, Math.max(1, ...totals), 5);
  const x = scale(0, ticks.at(-1)!, area.left, area.left + area.width);
  const slot = area.height / Math.max(1, spec.rows.length);
  const barHeight = Math.min(slot * 0.72, 28);
  const body = [
    ...legend(spec.parts, 48),
    ...valueAxisX(area, ticks, x),
    text(area.left + area.width / 2, HEIGHT - 10, spec.xTitle, { anchor: "middle" }),
  ];
  spec.rows.forEach((row, i) => {
    const cy = area.top + slot * (i + 0.5);
    body.push(
      text(area.left - 6, cy + 4, fitText(row.label, LABEL_SIZE, labelWidth), { size: LABEL_SIZE, anchor: "end" }),
    );
    let start = 0;
    row.values.forEach((value, j) => {
      if (value <= 0) return;
      const x0 = x(start);
      const width = x(start + value) - x0;
      body.push(rect(x0, cy - barHeight / 2, width, barHeight, spec.parts[j].color));
      const label = String(value);
      if (width >= textWidth(label, 10) + 4 && barHeight >= 11) {
        body.push(text(x0 + width / 2, cy + 3.5, label, { size: 10, anchor: "middle", fill: "#000" }));
      }
      start += value;
    });
  });
  return svgDocument(spec.title, body);
}
