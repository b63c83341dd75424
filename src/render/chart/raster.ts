/**
 * An anti-aliased polygon filler on an RGB canvas: each shape's edges add signed area to an accumulation buffer
 * over the shape's bounding box, a running sum per row gives every pixel's exact coverage, and the colour is
 * blended in by it (the technique of font-rs and stb_truetype). Coverage is |winding| clamped to 1: nonzero fill
 * for glyphs (holes run the other way) and for strokes built from overlapping pieces turned the same way.
 */

/** A closed polygon: x, y pairs in pixels. */
export type Polygon = number[];

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
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const polygon of polygons) {
      for (let i = 0; i < polygon.length; i += 2) {
        x0 = Math.min(x0, polygon[i]);
        x1 = Math.max(x1, polygon[i]);
        y0 = Math.min(y0, polygon[i + 1]);
        y1 = Math.max(y1, polygon[i + 1]);
      }
    }
    const left = Math.max(0, Math.floor(x0));
    const top = Math.max(0, Math.floor(y0));
    const right = Math.min(this.width, Math.ceil(x1));
    const bottom = Math.min(this.height, Math.ceil(y1));
    if (right <= left || bottom <= top || opacity <= 0) return;
    const w = right - left;
    const h = bottom - top;
    const stride = w + 2;
    const acc = new Float32Array(stride * h);
    // The cells each row's edges touched: coverage is zero outside them, so only they are visited.
    const spans = new Int32Array(2 * h).fill(-1);
    for (const polygon of polygons) {
      const n = polygon.length;
      for (let i = 0; i < n; i += 2) {
        const j = (i + 2) % n;
        edge(
          acc,
          spans,
          stride,
          w,
          h,
          polygon[i] - left,
          polygon[i + 1] - top,
          polygon[j] - left,
          polygon[j + 1] - top,
        );
      }
    }
    const [r, g, b] = [(color >> 16) & 255, (color >> 8) & 255, color & 255];
    const rgb = this.rgb;
    for (let y = 0; y < h; y++) {
      if (spans[2 * y] < 0) continue;
      let sum = 0;
      const first = spans[2 * y];
      const last = Math.min(w, spans[2 * y + 1] + 1);
      let p = ((top + y) * this.width + left + first) * 3;
      const row = y * stride;
      for (let x = first; x < last; x++, p += 3) {
        sum += acc[row + x];
        const coverage = Math.min(1, Math.abs(sum));
        if (coverage < 1 / 512) continue;
        const a = coverage * opacity;
        if (a === 1) {
          rgb[p] = r;
          rgb[p + 1] = g;
          rgb[p + 2] = b;
        } else {
          rgb[p] = rgb[p] + (r - rgb[p]) * a + 0.5;
          rgb[p + 1] = rgb[p + 1] + (g - rgb[p + 1]) * a + 0.5;
          rgb[p + 2] = rgb[p + 2] + (b - rgb[p + 2]) * a + 0.5;
        }
      }
    }
  }
}

/**
 * Adds one edge's signed area to `acc` (rows of `stride` cells for a box `w` × `h`). x is clamped to the box, which
 * keeps the coverage inside it exact; each row's cells sum to the edge's height in that row.
 */
function edge(
  acc: Float32Array,
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
  const dir = ay < by ? 1 : -1;
  const x0 = dir > 0 ? ax : bx;
  const y0 = dir > 0 ? ay : by;
  const x1 = dir > 0 ? bx : ax;
  const y1 = dir > 0 ? by : ay;
  const dxdy = (x1 - x0) / (y1 - y0);
  const yStart = Math.max(0, Math.floor(y0));
  const yEnd = Math.min(h, Math.ceil(y1));
  let x = x0 + (Math.max(y0, yStart) - y0) * dxdy;
  for (let y = yStart; y < yEnd; y++) {
    const dy = Math.min(y + 1, y1) - Math.max(y, y0);
    const next = x + dxdy * dy;
    const d = dy * dir;
    const row = y * stride;
    const xa = Math.min(w, Math.max(0, Math.min(x, next)));
    const xb = Math.min(w, Math.max(0, Math.max(x, next)));
    const ia = Math.floor(xa);
    const ib = Math.ceil(xb);
    if (spans[2 * y] < 0 || ia < spans[2 * y]) spans[2 * y] = ia;
    if (ib + 1 > spans[2 * y + 1]) spans[2 * y + 1] = ib + 1;
    if (ib <= ia + 1) {
      // Within one pixel: the part right of the edge's mean x is covered.
      const mid = (xa + xb) / 2 - ia;
      acc[row + ia] += d * (1 - mid);
      acc[row + ia + 1] += d * mid;
    } else {
      // Across pixels: a trapezoid's area split over the cells it crosses.
      const s = 1 / (xb - xa);
      const fa = xa - ia;
      const a0 = 0.5 * s * (1 - fa) * (1 - fa);
      const fb = xb - ib + 1;
      const am = 0.5 * s * fb * fb;
      acc[row + ia] += d * a0;
      if (ib === ia + 2) {
        acc[row + ia + 1] += d * (1 - a0 - am);
      } else {
        const a1 = s * (1.5 - fa);
        acc[row + ia + 1] += d * (a1 - a0);
        for (let i = ia + 2; i < ib - 1; i++) acc[row + i] += d * s;
        const a2 = a1 + (ib - ia - 3) * s;
        acc[row + ib - 1] += d * (1 - a2 - am);
      }
      acc[row + ib] += d * am;
    }
    x = next;
  }
}
