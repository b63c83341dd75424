/**
 * Counts per year as a line or as bars. Year labels are thinned to every 1, 2, 5 or 10 years so they never
 * touch, whatever the range (at most 50 years).
 */
import {
  type Area,
  fitText,
  HEIGHT,
  niceTicks,
  PALETTE,
  r,
  rect,
  scale,
  svgDocument,
  text,
  textWidth,
  valueAxisY,
  WIDTH,
  yTitle,
} from "./svg.ts";

export interface YearSeriesSpec {
  title: string;
  yTitle: string;
  kind: "line" | "bar";
  points: { year: number; count: number }[];
}

export function yearSeriesSvg(spec: YearSeriesSpec): string {
  const counts = spec.points.map((p) => p.count);
  const ticks = niceTicks(0, Math.max(1, ...counts), 5);
  const widestTick = Math.max(...ticks.map((t) => textWidth(t.toLocaleString("en-US"), 11)));
  const area: Area = { left: Math.max(56, widestTick + 34), top: 44, width: 0, height: HEIGHT - 44 - 52 };
  area.width = WIDTH - area.left - 20;
  const slot = area.width / spec.points.length;
  const y = scale(0, ticks.at(-1)!, area.top + area.height, area.top);
  const cx = (i: number) => area.left + slot * (i + 0.5);
  const every = [1, 2, 5, 10].find((k) => k * slot >= textWidth("2020", 11) + 8) ?? 10;
  const body = [
    ...valueAxisY(area, ticks, y),
    yTitle(area, spec.yTitle),
    text(area.left + area.width / 2, HEIGHT - 12, "Publication year", { anchor: "middle" }),
  ];
  spec.points.forEach((p, i) => {
    if (p.year % every === 0 || spec.points.length === 1) {
      body.push(text(cx(i), area.top + area.height + 16, String(p.year), { size: 11, anchor: "middle", fill: "#444" }));
    }
  });
  if (spec.kind === "bar") {
    const width = Math.max(1, slot * 0.75);
    spec.points.forEach((p, i) => body.push(rect(cx(i) - width / 2, y(p.count), width, y(0) - y(p.count), PALETTE[0])));
  } else {
    const path = spec.points.map((p, i) => `${r(cx(i))},${r(y(p.count))}`).join(" ");
    body.push(`<polyline points="${path}" fill="none" stroke="${PALETTE[0]}" stroke-width="2.5"/>`);
    if (spec.points.length <= 30) {
      for (const [i, p] of spec.points.entries()) {
        body.push(`<circle cx="${r(cx(i))}" cy="${r(y(p.count))}" r="3" fill="${PALETTE[0]}"/>`);
      }
    }
  }
  return svgDocument(fitText(spec.title, 16, WIDTH - 24), body);
}
