/**
 * SVG building blocks shared by every chart: the 600×400 canvas, the Okabe–Ito palette, text measured
 * without a font engine (Noto Sans advance widths, rounded up), label truncation, nice axis ticks and the
 * frame of a plot (title, grid, tick labels, axis titles). Charts are plain strings: no DOM, no browser.
 */

export const WIDTH = 600;
export const HEIGHT = 400;
export const FONT_FAMILY = "Noto Sans";

/** Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision deficiency. */
export const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

/** The plotting area inside the canvas, in pixels. */
export interface Area {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** XML-escapes text for element content and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * Width of `text` in pixels at `size`, from Noto Sans advance widths grouped by character class and rounded
 * up, so a label measured to fit does fit (a little air is the price of not shaping text here).
 */
export function textWidth(text: string, size: number): number {
  let em = 0;
  for (const c of text) {
    if (c === " ") em += 0.26;
    else if (/[ijlIft.,:;!'|()[\]]/.test(c)) em += 0.32;
    else if (/[0-9]/.test(c)) em += 0.58;
    else if (/[mwMW]/.test(c)) em += 0.9;
    else if (/[A-Z]/.test(c)) em += 0.68;
    else if (/[a-z]/.test(c)) em += 0.56;
    else em += 0.64;
  }
  return em * size;
}

/** `text` cut with an ellipsis so it fits `maxWidth` pixels at `size`. */
export function fitText(text: string, size: number, maxWidth: number): string {
  if (textWidth(text, size) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 1 && textWidth(chars.join("") + "…", size) > maxWidth) chars.pop();
  return chars.join("").trimEnd() + "…";
}

/** About `target` round tick values (1, 2 or 5 × 10^n apart) covering [min, max]; always includes 0 for bars. */
export function niceTicks(min: number, max: number, target = 5): number[] {
  if (!(max > min)) max = min + 1;
  const raw = (max - min) / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let v = first; v < max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A tick label: thousands separated, large values as k/M, at most three decimals. */
export function formatTick(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toPrecision(3))}k`;
  return groupDigits(value);
}

/**
 * `value` as en-US writes it (thousands separated by commas, at most three decimals) without Intl: the first
 * toLocaleString of a process loads ICU's locale data, ~16 ms of CPU on the first chart (#36).
 */
export function groupDigits(value: number): string {
  const text = String(Math.abs(value));
  // Rounded half away from zero on the shortest decimal form, as Intl does (1.2345 → 1.235).
  // Exponent forms: past 1e21 a whole number, below 1e-6 zero at three decimals.
  const plain = !text.includes("e") ? text : Math.abs(value) >= 1 ? BigInt(Math.abs(value)).toString() : "0";
  let [whole, decimals = ""] = plain.split(".");
  if (decimals.length > 3) {
    const up = decimals[3] >= "5";
    decimals = decimals.slice(0, 3);
    if (up) {
      const digits = (BigInt(whole + decimals) + 1n).toString().padStart(whole.length + 3, "0");
      [whole, decimals] = [digits.slice(0, -3), digits.slice(-3)];
    }
  }
  decimals = decimals.replace(/0+$/, "");
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ",")}${decimals ? `.${decimals}` : ""}`;
}

/** A linear map from [d0, d1] to [r0, r1]. */
export function scale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

export function text(
  x: number,
  y: number,
  content: string,
  attrs: { size?: number; anchor?: "start" | "middle" | "end"; fill?: string; rotate?: number; weight?: number } = {},
): string {
  const rotate = attrs.rotate ? ` transform="rotate(${attrs.rotate} ${r(x)} ${r(y)})"` : "";
  const weight = attrs.weight ? ` font-weight="${attrs.weight}"` : "";
  return `<text x="${r(x)}" y="${r(y)}" font-size="${attrs.size ?? 12}" text-anchor="${attrs.anchor ?? "start"}" ` +
    `fill="${attrs.fill ?? "#222"}"${weight}${rotate}>${esc(content)}</text>`;
}

export function rect(x: number, y: number, width: number, height: number, fill: string): string {
  return `<rect x="${r(x)}" y="${r(y)}" width="${r(Math.max(0, width))}" height="${r(Math.max(0, height))}" ` +
    `fill="${fill}"/>`;
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke = "#ccc", width = 1): string {
  return `<line x1="${r(x1)}" y1="${r(y1)}" x2="${r(x2)}" y2="${r(y2)}" stroke="${stroke}" stroke-width="${width}"/>`;
}

/** Rounds a coordinate to 0.1 px: smaller SVG, same picture. */
export function r(v: number): number {
  return Math.round(v * 10) / 10;
}

/** The whole document: white background, the font every label uses, the title on top. */
export function svgDocument(title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ` +
    `font-family="${FONT_FAMILY}, sans-serif">`,
    `<title>${esc(title)}</title>`,
    rect(0, 0, WIDTH, HEIGHT, "#fff"),
    text(WIDTH / 2, 24, fitText(title, 16, WIDTH - 24), { size: 16, anchor: "middle", weight: 700 }),
    ...body,
    "</svg>",
  ].join("\n");
}

/** Horizontal grid lines with value labels on the left of `area`, for the ticks of a vertical value axis. */
export function valueAxisY(area: Area, ticks: number[], y: (v: number) => number): string[] {
  return ticks.flatMap((t) => [
    line(area.left, y(t), area.left + area.width, y(t), t === 0 ? "#888" : "#e3e3e3"),
    text(area.left - 6, y(t) + 4, formatTick(t), { size: 11, anchor: "end", fill: "#444" }),
  ]);
}

/** Vertical grid lines with value labels under `area`, for the ticks of a horizontal value axis. */
export function valueAxisX(area: Area, ticks: number[], x: (v: number) => number): string[] {
  const bottom = area.top + area.height;
  return ticks.flatMap((t) => [
    line(x(t), area.top, x(t), bottom, t === 0 ? "#888" : "#e3e3e3"),
    text(x(t), bottom + 15, formatTick(t), { size: 11, anchor: "middle", fill: "#444" }),
  ]);
}

/** A vertical axis title, rotated, centred on the left edge of `area`. */
export function yTitle(area: Area, title: string, x = 16): string {
  return text(x, area.top + area.height / 2, fitText(title, 12, area.height), {
    anchor: "middle",
    rotate: -90,
    fill: "#333",
  });
}

/** A legend row of coloured squares and names, centred at `y`. */
export function legend(items: { name: string; color: string }[], y: number): string[] {
  const widths = items.map((i) => 18 + textWidth(i.name, 12) + 14);
  let x = (WIDTH - widths.reduce((a, b) => a + b, 0)) / 2;
  return items.flatMap((item, i) => {
    const parts = [rect(x, y - 10, 12, 12, item.color), text(x + 17, y, item.name, { size: 12 })];
    x += widths[i];
    return parts;
  });
}
