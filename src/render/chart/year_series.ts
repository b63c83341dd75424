/**
 * Counts per year as a line or as bars. Year labels are thinned to every 1, 2, 5 or 10 years so they never
 * touch, whatever the range (at most 50 years). A year still under way is drawn hollow and labelled
 * "partial", so its low count does not read as a decline (#34).
 */
import {
  type Area,
  fitText,
  groupDigits,
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
  /** The year still under way, when the range reaches it: its count is not a whole year's. */
  partialYear?: number;
}

export function yearSeriesSvg(spec: YearSeriesSpec): string {
  const counts = spec.points.map((p) => p.count);
  const ticks = niceTicks(0, Math.max(1, ...counts), 5);
  const widestTick = Math.max(...ticks.map((t) => textWidth(groupDigits(t), 11)));
  const area: Area = { left: Math.max(56, widestTick + 34), top: 44, width: 0, height: HEIGHT - 44 - 52 };
  area.width = WIDTH - area.left - 20;
  const slot = area.width / spec.points.length;
  const y = scale(0, ticks.at(-1)!, area.top + area.height, area.top);
  const cx = (i: number) => area.left + slot * (i + 0.5);
  const partial = spec.points.findIndex((p) => p.year === spec.partialYear);
  const every = [1, 2, 5, 10].find((k) => k * slot >= textWidth("2020", 11) + 8) ?? 10;
  const body = [
    ...valueAxisY(area, ticks, y),
    yTitle(area, spec.yTitle),
    text(
      area.left + area.width / 2,
      HEIGHT - 12,
      `Publication year${partial >= 0 ? ` (${spec.partialYear} partial: counted so far)` : ""}`,
      { anchor: "middle" },
    ),
  ];
  spec.points.forEach((p, i) => {
    if (p.year % every === 0 || spec.points.length === 1) {
      body.push(text(cx(i), area.top + area.height + 16, String(p.year), { size: 11, anchor: "middle", fill: "#444" }));
    }
  });
  const whole = partial >= 0 ? spec.points.slice(0, partial) : spec.points;
  if (spec.kind === "bar") {
    const width = Math.max(1, slot * 0.75);
    whole.forEach((p, i) => body.push(rect(cx(i) - width / 2, y(p.count), width, y(0) - y(p.count), PALETTE[0])));
    if (partial >= 0) {
      const height = y(0) - y(spec.points[partial].count);
      body.push(
        `<rect x="${r(cx(partial) - width / 2)}" y="${r(y(spec.points[partial].count))}" width="${r(width)}" ` +
          `height="${r(Math.max(0, height))}" fill="${PALETTE[0]}" fill-opacity="0.25" stroke="${PALETTE[0]}" ` +
          `stroke-dasharray="4 3"/>`,
      );
    }
  } else {
    const path = whole.map((p, i) => `${r(cx(i))},${r(y(p.count))}`).join(" ");
    body.push(`<polyline points="${path}" fill="none" stroke="${PALETTE[0]}" stroke-width="2.5"/>`);
    if (partial > 0) {
      const [a, b] = [partial - 1, partial].map((i) => `${r(cx(i))},${r(y(spec.points[i].count))}`);
      body.push(
        `<polyline points="${a} ${b}" fill="none" stroke="${PALETTE[0]}" stroke-width="2" stroke-dasharray="5 4"/>`,
      );
    }
    if (spec.points.length <= 30) {
      for (const [i, p] of whole.entries()) {
        body.push(`<circle cx="${r(cx(i))}" cy="${r(y(p.count))}" r="3" fill="${PALETTE[0]}"/>`);
      }
    }
    if (partial >= 0) {
      const p = spec.points[partial];
      body.push(
        `<circle cx="${r(cx(partial))}" cy="${r(y(p.count))}" r="3.5" fill="#fff" stroke="${
          PALETTE[0]
        }" stroke-width="2"/>`,
      );
    }
  }
  if (partial >= 0) {
    const top = y(spec.points[partial].count) - 8;
    body.push(text(cx(partial), Math.max(area.top + 10, top), "partial", { size: 10, anchor: "end", fill: "#444" }));
  }
  return svgDocument(fitText(spec.title, 16, WIDTH - 24), body);
}
