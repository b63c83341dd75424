/**
 * A scatter plot of labelled points (compounds by two properties). Labels try four places around their
 * point and are left out rather than drawn over another label; the table beside the chart names every point.
 */
import {
  type Area,
  fitText,
  HEIGHT,
  niceTicks,
  PALETTE,
  r,
  scale,
  svgDocument,
  text,
  textWidth,
  valueAxisX,
  valueAxisY,
  WIDTH,
  yTitle,
} from "./svg.ts";

export interface ScatterSpec {
  title: string;
  xTitle: string;
  yTitle: string;
  points: { label: string; x: number; y: number }[];
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const LABEL_SIZE = 11;

export function scatterSvg(spec: ScatterSpec): string {
  const area: Area = { left: 70, top: 44, width: WIDTH - 70 - 24, height: HEIGHT - 44 - 58 };
  const xs = spec.points.map((p) => p.x);
  const ys = spec.points.map((p) => p.y);
  const xTicks = niceTicks(...padded(xs), 5);
  const yTicks = niceTicks(...padded(ys), 5);
  const x = scale(xTicks[0], xTicks.at(-1)!, area.left, area.left + area.width);
  const y = scale(yTicks[0], yTicks.at(-1)!, area.top + area.height, area.top);
  const body = [
    ...valueAxisY(area, yTicks, y),
    ...valueAxisX(area, xTicks, x),
    text(area.left + area.width / 2, HEIGHT - 14, fitText(spec.xTitle, 12, area.width), { anchor: "middle" }),
    yTitle(area, spec.yTitle),
  ];
  const placed: Box[] = spec.points.map((p) => ({ x0: x(p.x) - 5, y0: y(p.y) - 5, x1: x(p.x) + 5, y1: y(p.y) + 5 }));
  spec.points.forEach((p, i) => {
    const color = PALETTE[i % PALETTE.length];
    body.push(
      `<circle cx="${r(x(p.x))}" cy="${r(y(p.y))}" r="5" fill="${color}" stroke="#fff" stroke-width="1"/>`,
    );
    const label = fitText(p.label, LABEL_SIZE, 120);
    const box = labelBox(x(p.x), y(p.y), textWidth(label, LABEL_SIZE), area, placed);
    if (box) {
      placed.push(box);
      body.push(text(box.x0, box.y1 - 3, label, { size: LABEL_SIZE, fill: "#222" }));
    }
  });
  return svgDocument(spec.title, body);
}

/** The values' range widened by 5 % each side, so no point sits on the frame. */
function padded(values: number[]): [number, number] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const pad = (max - min) * 0.05 || Math.abs(max) * 0.05 || 1;
  return [min - pad, max + pad];
}

/** The first of right, left, above, below that stays in the canvas and overlaps nothing placed. */
function labelBox(px: number, py: number, width: number, area: Area, placed: Box[]): Box | undefined {
  const h = LABEL_SIZE + 3;
  const candidates: Box[] = [
    { x0: px + 8, y0: py - h / 2, x1: px + 8 + width, y1: py + h / 2 },
    { x0: px - 8 - width, y0: py - h / 2, x1: px - 8, y1: py + h / 2 },
    { x0: px - width / 2, y0: py - 8 - h, x1: px + width / 2, y1: py - 8 },
    { x0: px - width / 2, y0: py + 8, x1: px + width / 2, y1: py + 8 + h },
  ];
  return candidates.find((b) =>
    b.x0 >= area.left - 60 && b.x1 <= WIDTH - 4 && b.y0 >= area.top - 8 && b.y1 <= area.top + area.height + 4 &&
    placed.every((o) => b.x1 <= o.x0 || b.x0 >= o.x1 || b.y1 <= o.y0 || b.y0 >= o.y1)
  );
}
