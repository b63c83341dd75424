/**
 * Draws the SVG our charts are made of (svg.ts and the chart modules) on a Canvas, in JavaScript: rect, line,
 * polyline, circle and text (Noto Sans outlines from font.ts, kerned), fills, strokes with miter joins and butt caps,
 * dashes, opacity and rotated text. Anything outside that subset (another element, attribute, colour syntax or
 * transform) throws UnsupportedSvg, and rasterize.ts hands that SVG to resvg instead: nothing is drawn half right.
 * Why not resvg for everything: its 2.5 MB of wasm cost the first chart 600–700 ms of CPU, most of it V8 compiling
 * the hot functions in the background, against ~60 ms for later charts (#36, docs/benchmarks.md). One face is
 * bundled (Regular), so font-weight is accepted and drawn regular, as resvg drew it with the same font.
 */
import { Canvas, OutOfRange, type Polygon } from "./raster.ts";
import type { Contour, Font } from "./font.ts";

export class UnsupportedSvg extends Error {}

/** The glyph a character none of the fonts has is drawn with: U+FFFD, the replacement character. */
export const REPLACEMENT = 0xfffd;

/** Fonts tried in order for each character; the first one's U+FFFD stands in for a character none has. */
export class FontSet {
  constructor(readonly fonts: Font[]) {}

  find(codePoint: number): { font: Font; glyph: number } {
    for (const font of this.fonts) {
      const glyph = font.glyph(codePoint);
      if (glyph !== undefined) return { font, glyph };
    }
    return { font: this.fonts[0], glyph: this.fonts[0].glyph(REPLACEMENT) ?? 0 };
  }
}

const ELEMENT = /<(\w+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>(?:([^<]*)<\/\1>)?/g;
const ATTRIBUTE = /([\w:-]+)="([^"]*)"/g;
const ALLOWED: Record<string, Set<string>> = {
  svg: new Set(["xmlns", "width", "height", "viewBox", "font-family"]),
  title: new Set(),
  rect: new Set(["x", "y", "width", "height", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray"]),
  line: new Set(["x1", "y1", "x2", "y2", "stroke", "stroke-width", "stroke-dasharray"]),
  polyline: new Set(["points", "fill", "stroke", "stroke-width", "stroke-dasharray"]),
  circle: new Set(["cx", "cy", "r", "fill", "stroke", "stroke-width"]),
  text: new Set(["x", "y", "font-size", "text-anchor", "fill", "font-weight", "transform"]),
};

/** The SVG drawn at its own size; throws UnsupportedSvg for anything outside the charts' subset. */
export function drawSvg(svg: string, fonts: FontSet): Canvas {
  let canvas: Canvas | undefined;
  let closed = false;
  let end = 0;
  for (const match of svg.matchAll(ELEMENT)) {
    const [whole, name, attributeText, selfClosed, content] = match;
    if (svg.slice(end, match.index).trim() !== "") throw new UnsupportedSvg("markup outside the subset");
    end = match.index + whole.length;
    const allowed = ALLOWED[name];
    if (!allowed) throw new UnsupportedSvg(`element <${name}>`);
    const a: Record<string, string> = {};
    for (const [, key, value] of attributeText.matchAll(ATTRIBUTE)) {
      if (!allowed.has(key)) throw new UnsupportedSvg(`attribute ${key} on <${name}>`);
      a[key] = value;
    }
    if (name === "svg") {
      if (canvas) throw new UnsupportedSvg("nested <svg>");
      const [width, height] = [Number(a.width), Number(a.height)];
      if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
        throw new UnsupportedSvg("width and height must be whole pixels");
      }
      if (a.viewBox !== undefined && a.viewBox !== `0 0 ${width} ${height}`) throw new UnsupportedSvg("viewBox");
      canvas = new Canvas(width, height);
      closed = content !== undefined; // <svg ...></svg>: nothing inside
      continue;
    }
    if (!canvas) throw new UnsupportedSvg(`<${name}> before <svg>`);
    if (name === "title") continue;
    try {
      if (name === "text") {
        if (selfClosed || content === undefined) throw new UnsupportedSvg("<text> must hold plain text");
        drawText(canvas, fonts, a, unescape(content));
      } else {
        if (!selfClosed) throw new UnsupportedSvg(`<${name}> with children`);
        drawShape(canvas, name, a);
      }
    } catch (error) {
      throw error instanceof OutOfRange ? new UnsupportedSvg(error.message) : error;
    }
  }
  const tail = svg.slice(end).trim();
  if (!canvas || tail !== (closed ? "" : "</svg>")) throw new UnsupportedSvg("markup outside the subset");
  return canvas;
}

function drawShape(canvas: Canvas, name: string, a: Record<string, string>): void {
  let outline: number[];
  let closed = true;
  if (name === "rect") {
    const [x, y, w, h] = [num(a.x ?? "0"), num(a.y ?? "0"), num(a.width), num(a.height)];
    if (w <= 0 || h <= 0) return;
    outline = [x, y, x + w, y, x + w, y + h, x, y + h];
  } else if (name === "circle") {
    const [cx, cy, r] = [num(a.cx), num(a.cy), num(a.r)];
    if (r <= 0) return;
    const fill = color(a.fill ?? "#000");
    if (fill !== undefined) canvas.fill([circle(cx, cy, r)], fill);
    const stroke = color(a.stroke ?? "none");
    const width = num(a["stroke-width"] ?? "1");
    if (stroke !== undefined && width > 0) {
      const inner = r - width / 2 > 0 ? [reverse(circle(cx, cy, r - width / 2))] : [];
      canvas.fill([circle(cx, cy, r + width / 2), ...inner], stroke);
    }
    return;
  } else if (name === "line") {
    outline = [num(a.x1), num(a.y1), num(a.x2), num(a.y2)];
    closed = false;
  } else {
    outline = a.points.trim().split(/[\s,]+/).map(num);
    if (outline.length % 2) throw new UnsupportedSvg("odd number of polyline coordinates");
    closed = false;
  }
  const fill = color(a.fill ?? (name === "line" ? "none" : "#000"));
  const opacity = num(a["fill-opacity"] ?? "1");
  if (fill !== undefined && name === "rect") {
    canvas.fillRect(outline[0], outline[1], outline[4], outline[5], fill, opacity);
  } else if (fill !== undefined && outline.length >= 6) canvas.fill([outline], fill, opacity);
  const stroke = color(a.stroke ?? "none");
  const width = num(a["stroke-width"] ?? "1");
  if (stroke === undefined || width <= 0) return;
  const path = closed ? [...outline, outline[0], outline[1]] : outline;
  const pieces = a["stroke-dasharray"] ? dashes(path, dashArray(a["stroke-dasharray"])) : [path];
  canvas.fill(pieces.flatMap((piece) => strokePolyline(piece, width, closed && pieces.length === 1)), stroke);
}

function drawText(canvas: Canvas, fonts: FontSet, a: Record<string, string>, content: string): void {
  const size = num(a["font-size"] ?? "16");
  const fill = color(a.fill ?? "#000");
  if (fill === undefined || size <= 0) return;
  const glyphs = [...content.normalize("NFC")].map((c) => fonts.find(c.codePointAt(0)!));
  // Pen positions in pixels; pairs from one font are kerned.
  const pens: number[] = [];
  let pen = 0;
  for (let i = 0; i < glyphs.length; i++) {
    const { font, glyph } = glyphs[i];
    const scale = size / font.unitsPerEm;
    const previous = glyphs[i - 1];
    if (previous?.font === font) pen += font.kerning(previous.glyph, glyph) * scale;
    pens.push(pen);
    pen += font.advance(glyph) * scale;
  }
  const anchor = a["text-anchor"] ?? "start";
  if (!["start", "middle", "end"].includes(anchor)) throw new UnsupportedSvg(`text-anchor ${anchor}`);
  const x0 = num(a.x ?? "0") - (anchor === "middle" ? pen / 2 : anchor === "end" ? pen : 0);
  const y0 = num(a.y ?? "0");
  const turn = rotation(a.transform);
  const polygons: Polygon[] = [];
  for (let i = 0; i < glyphs.length; i++) {
    const { font, glyph } = glyphs[i];
    const contours = font.outline(glyph);
    for (let c = 0; c < contours.length; c++) {
      const polygon = flatten(contours[c], x0 + pens[i], y0, size / font.unitsPerEm);
      if (turn) turn(polygon);
      polygons.push(polygon);
    }
  }
  if (polygons.length) canvas.fill(polygons, fill);
}

/** `rotate(angle cx cy)` as a function turning a polygon in place; undefined for no transform. */
function rotation(transform: string | undefined): ((polygon: Polygon) => void) | undefined {
  if (transform === undefined) return undefined;
  const match = /^rotate\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+))?\s*\)$/.exec(transform);
  if (!match) throw new UnsupportedSvg(`transform ${transform}`);
  const angle = Number(match[1]) * Math.PI / 180;
  const [cx, cy] = [Number(match[2] ?? 0), Number(match[3] ?? 0)];
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  return (polygon) => {
    for (let i = 0; i < polygon.length; i += 2) {
      const dx = polygon[i] - cx;
      const dy = polygon[i + 1] - cy;
      polygon[i] = cx + dx * cos - dy * sin;
      polygon[i + 1] = cy + dx * sin + dy * cos;
    }
  };
}

/**
 * A glyph contour in pixels (y down), its quadratic curves cut into chords within ~0.1 px. Written without closures
 * or array destructuring: the first chart runs it before V8 has compiled it, ~600 times (#36).
 */
function flatten(contour: Contour, originX: number, originY: number, scale: number): Polygon {
  const { points, onCurve } = contour;
  const n = onCurve.length;
  const out: Polygon = [];
  let start = onCurve.indexOf(true);
  let sx: number;
  let sy: number;
  if (start >= 0) {
    sx = originX + points[2 * start] * scale;
    sy = originY - points[2 * start + 1] * scale;
  } else {
    // No point on the curve: it starts midway between the first two controls.
    sx = (originX + points[0] * scale + originX + points[2 % (2 * n)] * scale) / 2;
    sy = (originY - points[1] * scale + originY - points[3 % (2 * n)] * scale) / 2;
    start = 0;
  }
  out.push(sx, sy);
  for (let k = 1; k <= n; k++) {
    const i = (start + k) % n;
    const cx = originX + points[2 * i] * scale;
    const cy = originY - points[2 * i + 1] * scale;
    if (onCurve[i]) {
      sx = cx;
      sy = cy;
      out.push(sx, sy);
      continue;
    }
    const j = (i + 1) % n;
    const nx = originX + points[2 * j] * scale;
    const ny = originY - points[2 * j + 1] * scale;
    const next = onCurve[j];
    const ex = next ? nx : (cx + nx) / 2;
    const ey = next ? ny : (cy + ny) / 2;
    const steps = Math.max(1, Math.ceil(Math.sqrt(Math.hypot(sx - 2 * cx + ex, sy - 2 * cy + ey) / 0.8)));
    for (let s = 1; s <= steps; s++) {
      const t = s / steps;
      const u = 1 - t;
      out.push(u * u * sx + 2 * u * t * cx + t * t * ex, u * u * sy + 2 * u * t * cy + t * t * ey);
    }
    sx = ex;
    sy = ey;
    if (next) k++;
  }
  return out;
}

/**
 * The outline of a stroked polyline as same-turning pieces (filled together, overlaps count once): a quad per
 * segment (butt caps) and a miter, or a bevel past SVG's miter limit of 4, at each joint.
 */
function strokePolyline(path: number[], width: number, closed: boolean): Polygon[] {
  const half = width / 2;
  const pts: number[] = [];
  for (let i = 0; i < path.length; i += 2) {
    if (i === 0 || path[i] !== pts[pts.length - 2] || path[i + 1] !== pts[pts.length - 1]) {
      pts.push(path[i], path[i + 1]);
    }
  }
  const count = pts.length / 2;
  const normals: number[] = [];
  const pieces: Polygon[] = [];
  for (let i = 0; i + 1 < count; i++) {
    const [ax, ay, bx, by] = [pts[2 * i], pts[2 * i + 1], pts[2 * i + 2], pts[2 * i + 3]];
    const length = Math.hypot(bx - ax, by - ay);
    const [nx, ny] = [-(by - ay) / length * half, (bx - ax) / length * half];
    normals.push(nx, ny);
    pieces.push(positive([ax + nx, ay + ny, bx + nx, by + ny, bx - nx, by - ny, ax - nx, ay - ny]));
  }
  const segments = normals.length / 2;
  const joints = closed ? segments : segments - 1;
  for (let j = 0; j < joints; j++) {
    const [a, b] = [j, (j + 1) % segments];
    const [px, py] = [pts[2 * (j + 1) % (2 * count)], pts[(2 * (j + 1) + 1) % (2 * count)]];
    const [nax, nay, nbx, nby] = [normals[2 * a], normals[2 * a + 1], normals[2 * b], normals[2 * b + 1]];
    const cross = nax * nby - nay * nbx;
    if (Math.abs(cross) < 1e-9) continue;
    const side = cross > 0 ? -1 : 1; // the outer side of the turn
    const [ox1, oy1, ox2, oy2] = [px + side * nax, py + side * nay, px + side * nbx, py + side * nby];
    const k = half * half / (half * half + nax * nbx + nay * nby);
    const [mx, my] = [px + side * k * (nax + nbx), py + side * k * (nay + nby)];
    const miter = Math.hypot(mx - px, my - py) / half <= 4;
    pieces.push(positive(miter ? [px, py, ox1, oy1, mx, my, ox2, oy2] : [px, py, ox1, oy1, ox2, oy2]));
  }
  return pieces;
}

/** The "on" stretches of a dashed polyline. */
function dashes(path: number[], pattern: number[]): number[][] {
  const out: number[][] = [];
  let index = 0;
  let left = pattern[0];
  let current: number[] | undefined = [path[0], path[1]];
  for (let i = 2; i < path.length; i += 2) {
    let x = path[i - 2];
    let y = path[i - 1];
    const ex = path[i];
    const ey = path[i + 1];
    let length = Math.hypot(ex - x, ey - y);
    while (length > 0) {
      const step = Math.min(left, length);
      const t = step / length;
      x += (ex - x) * t;
      y += (ey - y) * t;
      length -= step;
      left -= step;
      current?.push(x, y);
      if (left <= 1e-9) {
        if (current) out.push(current);
        index = (index + 1) % pattern.length;
        left = pattern[index];
        current = index % 2 === 0 ? [x, y] : undefined;
      }
    }
  }
  if (current && current.length >= 4) out.push(current);
  return out.filter((piece) => piece.length >= 4);
}

function dashArray(value: string): number[] {
  const pattern = value.trim().split(/[\s,]+/).map(num);
  if (pattern.some((v) => v < 0) || pattern.every((v) => v === 0)) throw new UnsupportedSvg(`dasharray ${value}`);
  return pattern.length % 2 ? [...pattern, ...pattern] : pattern;
}

function circle(cx: number, cy: number, r: number): Polygon {
  const steps = Math.max(16, Math.ceil(2 * Math.PI * r));
  const out: Polygon = [];
  for (let i = 0; i < steps; i++) {
    const t = 2 * Math.PI * i / steps;
    out.push(cx + r * Math.cos(t), cy + r * Math.sin(t));
  }
  return out;
}

/** The polygon turned so its signed area is positive. */
function positive(polygon: Polygon): Polygon {
  let area = 0;
  for (let i = 0; i < polygon.length; i += 2) {
    const j = (i + 2) % polygon.length;
    area += polygon[i] * polygon[j + 1] - polygon[j] * polygon[i + 1];
  }
  return area >= 0 ? polygon : reverse(polygon);
}

function reverse(polygon: Polygon): Polygon {
  const out: Polygon = [];
  for (let i = polygon.length - 2; i >= 0; i -= 2) out.push(polygon[i], polygon[i + 1]);
  return out;
}

function num(value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(n)) throw new UnsupportedSvg(`number ${value}`);
  return n;
}

/** #rgb or #rrggbb as 0xRRGGBB; undefined for none. */
function color(value: string): number | undefined {
  if (value === "none") return undefined;
  if (/^#[0-9a-f]{6}$/i.test(value)) return parseInt(value.slice(1), 16);
  if (/^#[0-9a-f]{3}$/i.test(value)) return parseInt([...value.slice(1)].map((c) => c + c).join(""), 16);
  throw new UnsupportedSvg(`colour ${value}`);
}

function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x([0-9a-f]+)|#(\d+));/gi, (entity, name, hex, dec) => {
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    if (dec) return String.fromCodePoint(Number(dec));
    return ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" } as Record<string, string>)[name] ?? entity;
  });
}
