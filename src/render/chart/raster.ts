/**
 * An anti-aliased polygon filler on an RGB canvas: each shape's edges add signed area to an accumulation buffer
 * over the shape's bounding box, a running sum per row gives every pixel's exact coverage, and the colour is
 * blended in by it (the technique of font-rs and stb_truetype). Coverage is |winding| clamped to 1: nonzero fill
 * for glyphs (holes run the other way) and for strokes built from overlapping pieces turned the same way.
 */

/** A closed polygon: x, y pairs in pixels. */
export type Polygon = number[];

/** A shape too far out for the rasteriser's whole numbers (draw.ts leaves such an SVG to resvg). */
export class OutOfRange extends Error {}

export class Canvas {
  /** RGB bytes (sRGB, blended as resvg does: no linearisation), row after row, starting white. */
  readonly rgb: Uint8Array;

  constructor(readonly width: number, readonly height: number) {
    this.rgb = new Uint8Array(width * height * 3).fill(255);
  }

  /**
   * An axis-aligned rectangle: each pixel's coverage is its overlap with the rectangle across times down, the same
   * as fill() would find. Only the edge pixels are blended in JavaScript; a fully covered row's interior is copied
   * from one solid row at once (the background alone is 240,000 pixels).
   */
  fillRect(x0: number, y0: number, x1: number, y1: number, color: number, opacity = 1): void {
    const left = Math.max(0, Math.floor(x0));
    const right = Math.min(this.width, Math.ceil(x1));
    const top = Math.max(0, Math.floor(y0));
    const bottom = Math.min(this.height, Math.ceil(y1));
    if (right <= left || bottom <= top || opacity <= 0) return;
    const overlap = (i: number, a: number, b: number) => Math.min(i + 1, b) - Math.max(i, a);
    const first = overlap(left, x0, x1);
    const last = overlap(right - 1, x0, x1);
    const solid = new Uint8Array((right - left) * 3);
    solid[0] = (color >> 16) & 255;
    solid[1] = (color >> 8) & 255;
    solid[2] = color & 255;
    for (let filled = 3; filled < solid.length; filled *= 2) solid.copyWithin(filled, 0, filled);
    for (let y = top; y < bottom; y++) {
      const rowCoverage = overlap(y, y0, y1) * opacity;
      const start = (y * this.width + left) * 3;
      if (rowCoverage === 1 && right - left > 2) {
        this.#blend(start, solid, first);
        this.rgb.set(solid.subarray(3, solid.length - 3), start + 3);
        this.#blend(start + solid.length - 3, solid, last);
        continue;
      }
      for (let x = left; x < right; x++) {
        this.#blend(start + 3 * (x - left), solid, (x === left ? first : x === right - 1 ? last : 1) * rowCoverage);
      }
    }
  }

  /** Blends the colour in `solid`'s first pixel into the pixel at byte `p` by `a`. */
  #blend(p: number, solid: Uint8Array, a: number): void {
    if (a < 1 / 512) return;
    const rgb = this.rgb;
    rgb[p] = rgb[p] + (solid[0] - rgb[p]) * a + 0.5;
    rgb[p + 1] = rgb[p + 1] + (solid[1] - rgb[p + 1]) * a + 0.5;
    rgb[p + 2] = rgb[p + 2] + (solid[2] - rgb[p + 2]) * a + 0.5;
  }

  /** Fills the polygons as one shape with `color` (0xRRGGBB) at `opacity`. */
  fill(polygons: Polygon[], color: number, opacity = 1): void {
    // Every vertex in whole 1/SUB pixels, once: the box and the edges are then worked out in whole numbers.
    let count = 0;
    for (let k = 0; k < polygons.length; k++) count += polygons[k].length;
    if (fixed.length < count) fixed = new Int32Array(Math.max(count, 2 * fixed.length));
    box[0] = box[1] = MAX_FIXED;
    box[2] = box[3] = -MAX_FIXED;
    for (let k = 0, p = 0; k < polygons.length; k++) p = toFixed(polygons[k], p);
    const x0 = box[0];
    const y0 = box[1];
    const x1 = box[2];
    const y1 = box[3];
    if (x0 < -MAX_FIXED || y0 < -MAX_FIXED || x1 > MAX_FIXED || y1 > MAX_FIXED) {
      throw new OutOfRange(`a shape reaching ${Math.max(-x0, -y0, x1, y1) / SUB} px from the origin`);
    }
    const left = Math.max(0, x0 >> 8);
    const top = Math.max(0, y0 >> 8);
    const right = Math.min(this.width, (x1 + SUB - 1) >> 8);
    const bottom = Math.min(this.height, (y1 + SUB - 1) >> 8);
    if (right <= left || bottom <= top || opacity <= 0) return;
    const w = right - left;
    const h = bottom - top;
    const stride = w + 2;
    const acc = new Int32Array(stride * h);
    // The cells each row's edges touched: coverage is zero outside them, so only they are visited.
    const spans = new Int32Array(2 * h).fill(-1);
    for (let k = 0, start = 0; k < polygons.length; k++) {
      const end = start + polygons[k].length;
      edges(acc, spans, stride, w, h, start, end, left * SUB, top * SUB);
      start = end;
    }
    const [r, g, b] = [(color >> 16) & 255, (color >> 8) & 255, color & 255];
    const alpha = Math.round(opacity * 256);
    for (let y = 0; y < h; y++) {
      const first = spans[2 * y];
      if (first < 0) continue;
      const last = Math.min(w, spans[2 * y + 1] + 1);
      paintRow(this.rgb, ((top + y) * this.width + left + first) * 3, acc, y * stride, first, last, r, g, b, alpha);
    }
  }
}

// Each function below holds one loop, none nested: V8 compiles a long-running loop while it runs (on-stack
// replacement), and code compiled for an inner loop is thrown away each time that loop ends, which in the first chart
// cost more than the loops themselves (#36).

/** The shape's box so far (x0, y0, x1, y1 in 1/SUB pixels), widened by toFixed; doubles, so that a vertex beyond
 * MAX_FIXED shows here before `fixed` wraps it. */
const box = new Float64Array(4);

/** Writes `polygon`'s vertices in 1/SUB pixels into `fixed` from index `p`, widening `box`; returns the next index. */
function toFixed(polygon: Polygon, p: number): number {
  for (let i = 0; i < polygon.length; i += 2, p += 2) {
    const x = Math.round(polygon[i] * SUB);
    const y = Math.round(polygon[i + 1] * SUB);
    fixed[p] = x;
    fixed[p + 1] = y;
    if (x < box[0]) box[0] = x;
    if (y < box[1]) box[1] = y;
    if (x > box[2]) box[2] = x;
    if (y > box[3]) box[3] = y;
  }
  return p;
}

/** The edges of the closed polygon whose vertices are `fixed[start..end)`, relative to the box's origin. */
function edges(
  acc: Int32Array,
  spans: Int32Array,
  stride: number,
  w: number,
  h: number,
  start: number,
  end: number,
  originX: number,
  originY: number,
): void {
  for (let i = start; i < end; i += 2) {
    const j = i + 2 < end ? i + 2 : start;
    edge(
      acc,
      spans,
      stride,
      w,
      h,
      fixed[i] - originX,
      fixed[i + 1] - originY,
      fixed[j] - originX,
      fixed[j + 1] - originY,
    );
  }
}

/**
 * Blends the colour into one row's pixels from byte `p` by the coverage the edges left in the row's cells (`row` in
 * `acc`, `first` to `last`). Whole numbers only (coverage in 1/ONE units, opacity in 1/256), so that no pixel's
 * arithmetic makes a double: while this code is still interpreted (the first chart) every double is a heap allocation.
 */
function paintRow(
  rgb: Uint8Array,
  p: number,
  acc: Int32Array,
  row: number,
  first: number,
  last: number,
  r: number,
  g: number,
  b: number,
  alpha: number,
): void {
  let sum = 0;
  for (let x = first; x < last; x++, p += 3) {
    sum += acc[row + x];
    const coverage = sum < 0 ? (sum < -ONE ? ONE : -sum) : (sum > ONE ? ONE : sum);
    if (coverage < MIN_COVERAGE) continue;
    const a = alpha === 256 ? coverage : (coverage * alpha) >> 8;
    if (a === ONE) {
      rgb[p] = r;
      rgb[p + 1] = g;
      rgb[p + 2] = b;
    } else {
      rgb[p] += ((r - rgb[p]) * a + HALF) >> SHIFT;
      rgb[p + 1] += ((g - rgb[p + 1]) * a + HALF) >> SHIFT;
      rgb[p + 2] += ((b - rgb[p + 2]) * a + HALF) >> SHIFT;
    }
  }
}

/** Coverage as a whole number of 1/ONE parts (16.16 fixed point: sums of many cells stay small integers). */
const SHIFT = 16;
const ONE = 1 << SHIFT;
const HALF = ONE >> 1;
/** Coverage under 1/512 changes no pixel by a level. */
const MIN_COVERAGE = ONE >> 9;

/** Edge coordinates in whole 1/SUB pixels; a cell's coverage is then height × width in 1/ONE parts. */
const SUB = 256;
/** The farthest a vertex may be from the origin, in 1/SUB pixels (4M pixels): sums of two stay in Int32. */
const MAX_FIXED = 2 ** 30 - 1;
/** The vertices of the shape being filled, in 1/SUB pixels (grown as needed, kept between fills). */
let fixed = new Int32Array(1024);

/**
 * Adds one edge's signed area to `acc` (rows of `stride` cells for a box `w` × `h`), in 1/ONE parts of a pixel.
 * x is clamped to the box, which keeps the coverage inside it exact; each row's cells sum to the edge's height in
 * that row. The end points are in whole 1/SUB pixels, and so is everything after (x walks down the edge
 * as a whole part and a remainder, as Bresenham's line does), so an interpreted call makes few heap numbers.
 */
function edge(
  acc: Int32Array,
  spans: Int32Array,
  stride: number,
  w: number,
  h: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
) {
  if (ay === by) return;
  // Ternaries rather than Math.min/max, and "| 0" where a rounding may give -0: the first chart runs this before V8
  // has compiled it (a call per Math.min is dear there), and a -0 or a product past 2^31 sends compiled code back
  // (deoptimises it) to be compiled again.
  const dir = ay < by ? 1 : -1;
  const x0 = dir > 0 ? ax : bx;
  const y0 = dir > 0 ? ay : by;
  const x1 = dir > 0 ? bx : ax;
  const y1 = dir > 0 ? by : ay;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const right = w * SUB;
  const yStart = y0 > 0 ? y0 >> 8 : 0;
  const yLast = (y1 + SUB - 1) >> 8;
  const yEnd = yLast < h ? yLast : h;
  // x at the first row's top: x0 + (t - y0) · dx / dy = q + r / dy with 0 <= r < dy.
  let rise = yStart * SUB > y0 ? yStart * SUB - y0 : 0;
  let q = x0 + Math.floor(rise * dx / dy) | 0;
  let r = rise * dx - (q - x0) * dy + 0;
  let x = q + (2 * r >= dy ? 1 : 0);
  for (let y = yStart; y < yEnd; y++) {
    const top = y * SUB;
    const bottom = top + SUB;
    rise = (bottom < y1 ? bottom : y1) - (top > y0 ? top : y0);
    r += rise * dx;
    if (r < 0 || r >= dy) {
      const carry = Math.floor(r / dy);
      q = q + carry | 0;
      r -= carry * dy;
    }
    const next = q + (2 * r >= dy ? 1 : 0);
    const d = dir > 0 ? rise : -rise;
    const row = y * stride;
    let xa = x < next ? x : next;
    let xb = x < next ? next : x;
    xa = xa < 0 ? 0 : xa > right ? right : xa;
    xb = xb < 0 ? 0 : xb > right ? right : xb;
    const ia = xa >> 8;
    const ib = (xb + SUB - 1) >> 8;
    if (spans[2 * y] < 0 || ia < spans[2 * y]) spans[2 * y] = ia;
    if (ib + 1 > spans[2 * y + 1]) spans[2 * y + 1] = ib + 1;
    if (ib <= ia + 1) {
      // Within one pixel: the part right of the edge's mean x is covered (mid in 1/(2·SUB) pixel).
      const mid = xa + xb - 2 * SUB * ia;
      const part = (d * mid) >> 1;
      acc[row + ia] += d * SUB - part;
      acc[row + ia + 1] += part;
    } else {
      // Across pixels: a trapezoid's area split over the cells it crosses, as running totals (cov) of the row's
      // d · SUB, rounded, so the cells still sum to it exactly. Each term is within ±SUB², so "| 0" keeps it whole.
      const span = xb - xa;
      const ga = SUB * (ia + 1) - xa;
      const gb = xb - SUB * (ib - 1);
      const full = d * SUB;
      const a0 = Math.round(d * ga * ga / (2 * span)) | 0;
      const last = full - Math.round(d * gb * gb / (2 * span)) | 0;
      acc[row + ia] += a0;
      const previous = spread(acc, row, ia + 1, ib - 1, a0, full / span, ga + SUB / 2);
      acc[row + ib - 1] += last - previous;
      acc[row + ib] += full - last;
    }
    x = next;
  }
}

/**
 * The cells `from` to `to` (exclusive) of an edge's row that the edge crosses whole: each gets its share of the
 * running total `perX` · covered, rounded (`previous`: the total up to `from`); returns the total up to `to`.
 */
function spread(
  acc: Int32Array,
  row: number,
  from: number,
  to: number,
  previous: number,
  perX: number,
  covered: number,
): number {
  for (let i = from; i < to; i++, covered += SUB) {
    const cov = Math.round(perX * covered) | 0;
    acc[row + i] += cov - previous;
    previous = cov;
  }
  return previous;
}
