/**
 * The chart font read in JavaScript: character → glyph (cmap formats 4 and 12), advance widths (hmtx), pair kerning
 * (GPOS lookup type 2, formats 1 and 2) and glyph outlines (glyf: simple and composite glyphs, quadratic curves),
 * enough to set a line of Noto Sans with no shaping engine. Tables are read on demand, glyphs cached.
 * Format: https://learn.microsoft.com/typography/opentype/spec/ (cmap, hmtx, loca, glyf, GPOS).
 */

/** One closed contour of a glyph in font units (y up): on-curve points with the off-curve controls between. */
export interface Contour {
  /** x, y pairs. */
  points: number[];
  /** Whether each point lies on the curve (false: a quadratic control point). */
  onCurve: boolean[];
}

/** A pair adjustment subtable: the adjustment for a pair it covers, else undefined. */
type PairRule = (left: number, right: number) => number | undefined;

export class Font {
  readonly unitsPerEm: number;
  readonly #view: DataView;
  readonly #tables = new Map<string, { offset: number; length: number }>();
  readonly #cmap = new Map<number, number>();
  readonly #outlines = new Map<number, Contour[]>();
  /** Per pair lookup, its subtables: each gives the pair's adjustment, or undefined when it does not cover it. */
  #pairLookups?: PairRule[][];
  readonly #pairs = new Map<number, number>();
  readonly #longLoca: boolean;
  readonly #metrics: number;

  constructor(sfnt: Uint8Array) {
    this.#view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
    const count = this.#view.getUint16(4);
    for (let i = 0; i < count; i++) {
      const record = 12 + 16 * i;
      const tag = String.fromCharCode(...sfnt.subarray(record, record + 4));
      this.#tables.set(tag, { offset: this.#view.getUint32(record + 8), length: this.#view.getUint32(record + 12) });
    }
    const head = this.#table("head");
    this.unitsPerEm = this.#view.getUint16(head + 18);
    this.#longLoca = this.#view.getInt16(head + 50) === 1;
    this.#metrics = this.#view.getUint16(this.#table("hhea") + 34);
    this.#readCmap();
  }

  /** The glyph of a character, or undefined when the font has none (glyph 0 is the "missing" box). */
  glyph(codePoint: number): number | undefined {
    return this.#cmap.get(codePoint);
  }

  /** Advance width in font units. */
  advance(glyph: number): number {
    const hmtx = this.#table("hmtx");
    return this.#view.getUint16(hmtx + 4 * Math.min(glyph, this.#metrics - 1));
  }

  /** Pair kerning in font units (usually negative) between two glyphs set one after the other. */
  kerning(left: number, right: number): number {
    const key = left * 0x10000 + right;
    let value = this.#pairs.get(key);
    if (value === undefined) {
      this.#pairLookups ??= this.#readPairLookups();
      // Each lookup applies its first subtable that covers the pair (as HarfBuzz does); lookups add up.
      value = 0;
      for (const subtables of this.#pairLookups) {
        for (const rule of subtables) {
          const adjustment = rule(left, right);
          if (adjustment !== undefined) {
            value += adjustment;
            break;
          }
        }
      }
      this.#pairs.set(key, value);
    }
    return value;
  }

  /** The glyph's contours in font units; composite glyphs are resolved into their parts. */
  outline(glyph: number): Contour[] {
    let contours = this.#outlines.get(glyph);
    if (!contours) {
      contours = this.#readGlyph(glyph, 0);
      this.#outlines.set(glyph, contours);
    }
    return contours;
  }

  #table(tag: string): number {
    const table = this.#tables.get(tag);
    if (!table) throw new Error(`the chart font has no ${tag} table`);
    return table.offset;
  }

  #readCmap(): void {
    const v = this.#view;
    const cmap = this.#table("cmap");
    let best = -1;
    let bestFormat = 0;
    for (let i = 0; i < v.getUint16(cmap + 2); i++) {
      const record = cmap + 4 + 8 * i;
      const [platform, encoding] = [v.getUint16(record), v.getUint16(record + 2)];
      if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
      const sub = cmap + v.getUint32(record + 4);
      const format = v.getUint16(sub);
      if (format === 12 || (format === 4 && bestFormat !== 12)) [best, bestFormat] = [sub, format];
    }
    if (best < 0) throw new Error("the chart font has no Unicode cmap (format 4 or 12)");
    if (bestFormat === 12) {
      for (let i = 0; i < v.getUint32(best + 12); i++) {
        const group = best + 16 + 12 * i;
        const [start, end, first] = [v.getUint32(group), v.getUint32(group + 4), v.getUint32(group + 8)];
        for (let c = start; c <= end; c++) this.#cmap.set(c, first + c - start);
      }
      return;
    }
    const segments = v.getUint16(best + 6) / 2;
    const ends = best + 14;
    const starts = ends + 2 * segments + 2;
    const deltas = starts + 2 * segments;
    const ranges = deltas + 2 * segments;
    for (let s = 0; s < segments; s++) {
      const [start, end] = [v.getUint16(starts + 2 * s), v.getUint16(ends + 2 * s)];
      const delta = v.getInt16(deltas + 2 * s);
      const rangeOffset = v.getUint16(ranges + 2 * s);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        const glyph = rangeOffset === 0
          ? (c + delta) & 0xffff
          : v.getUint16(ranges + 2 * s + rangeOffset + 2 * (c - start));
        if (glyph !== 0) this.#cmap.set(c, rangeOffset === 0 ? glyph : (glyph + delta) & 0xffff);
      }
    }
  }

  #readGlyph(glyph: number, depth: number): Contour[] {
    const v = this.#view;
    const loca = this.#table("loca");
    const [start, end] = this.#longLoca
      ? [v.getUint32(loca + 4 * glyph), v.getUint32(loca + 4 * glyph + 4)]
      : [2 * v.getUint16(loca + 2 * glyph), 2 * v.getUint16(loca + 2 * glyph + 2)];
    if (end <= start || depth > 8) return [];
    const at = this.#table("glyf") + start;
    const contourCount = v.getInt16(at);
    return contourCount >= 0 ? this.#simpleGlyph(at, contourCount) : this.#compositeGlyph(at, depth);
  }

  #simpleGlyph(at: number, contourCount: number): Contour[] {
    const v = this.#view;
    const ends = Array.from({ length: contourCount }, (_, i) => v.getUint16(at + 10 + 2 * i));
    const count = contourCount ? ends[contourCount - 1] + 1 : 0;
    let p = at + 10 + 2 * contourCount;
    p += 2 + v.getUint16(p); // instructions
    const flags: number[] = [];
    while (flags.length < count) {
      const flag = v.getUint8(p++);
      flags.push(flag);
      if (flag & 8) { for (let r = v.getUint8(p++); r > 0; r--) flags.push(flag); }
    }
    const coordinates = (short: number, same: number): number[] => {
      let value = 0;
      return flags.slice(0, count).map((flag) => {
        if (flag & short) {
          const d = v.getUint8(p++);
          value += flag & same ? d : -d;
        } else if (!(flag & same)) {
          value += v.getInt16(p);
          p += 2;
        }
        return value;
      });
    };
    const xs = coordinates(2, 16);
    const ys = coordinates(4, 32);
    let first = 0;
    return ends.map((last) => {
      const contour: Contour = { points: [], onCurve: [] };
      for (let i = first; i <= last; i++) {
        contour.points.push(xs[i], ys[i]);
        contour.onCurve.push((flags[i] & 1) === 1);
      }
      first = last + 1;
      return contour;
    });
  }

  #compositeGlyph(at: number, depth: number): Contour[] {
    const v = this.#view;
    const out: Contour[] = [];
    let p = at + 10;
    for (let more = true; more;) {
      const flags = v.getUint16(p);
      const part = v.getUint16(p + 2);
      p += 4;
      let dx: number, dy: number;
      if (flags & 1) [dx, dy, p] = [v.getInt16(p), v.getInt16(p + 2), p + 4];
      else [dx, dy, p] = [v.getInt8(p), v.getInt8(p + 1), p + 2];
      if (!(flags & 2)) dx = dy = 0; // point-matched placement: not used by this font
      let [a, b, c, d] = [1, 0, 0, 1];
      const f2dot14 = (offset: number) => v.getInt16(offset) / 16384;
      if (flags & 8) [a, d, p] = [f2dot14(p), f2dot14(p), p + 2];
      else if (flags & 0x40) [a, d, p] = [f2dot14(p), f2dot14(p + 2), p + 4];
      else if (flags & 0x80) [a, b, c, d, p] = [f2dot14(p), f2dot14(p + 2), f2dot14(p + 4), f2dot14(p + 6), p + 8];
      for (const contour of this.#readGlyph(part, depth + 1)) {
        const points = contour.points.slice();
        for (let i = 0; i < points.length; i += 2) {
          const x = points[i];
          const y = points[i + 1];
          points[i] = a * x + c * y + dx;
          points[i + 1] = b * x + d * y + dy;
        }
        out.push({ points, onCurve: contour.onCurve });
      }
      more = (flags & 0x20) !== 0;
    }
    return out;
  }

  /** GPOS pair adjustment lookups (type 2, or 9 wrapping 2): the x advance they add to the first glyph. */
  #readPairLookups(): PairRule[][] {
    const gpos = this.#tables.get("GPOS")?.offset;
    if (gpos === undefined) return [];
    const v = this.#view;
    const lookups = gpos + v.getUint16(gpos + 8);
    const out: PairRule[][] = [];
    for (let l = 0; l < v.getUint16(lookups); l++) {
      const lookup = lookups + v.getUint16(lookups + 2 + 2 * l);
      const type = v.getUint16(lookup);
      const subtables: PairRule[] = [];
      for (let s = 0; s < v.getUint16(lookup + 4); s++) {
        let sub = lookup + v.getUint16(lookup + 6 + 2 * s);
        if (type === 9) {
          if (v.getUint16(sub + 2) !== 2) continue;
          sub += v.getUint32(sub + 4);
        } else if (type !== 2) continue;
        const rule = this.#pairSubtable(sub);
        if (rule) subtables.push(rule);
      }
      if (subtables.length) out.push(subtables);
    }
    return out;
  }

  #pairSubtable(sub: number): PairRule | undefined {
    const v = this.#view;
    const format = v.getUint16(sub);
    const [format1, format2] = [v.getUint16(sub + 4), v.getUint16(sub + 6)];
    const size = (f: number) => [1, 2, 4, 8, 16, 32, 64, 128].filter((bit) => f & bit).length * 2;
    const [size1, size2] = [size(format1), size(format2)];
    // The first glyph's x advance follows its x and y placement, when those are present.
    const xAdvance = (record: number) =>
      format1 & 4 ? v.getInt16(record + ((format1 & 1) ? 2 : 0) + ((format1 & 2) ? 2 : 0)) : 0;
    const coverage = this.#coverage(sub + v.getUint16(sub + 2));
    if (format === 1) {
      const sets = new Map<number, Map<number, number>>();
      return (left, right) => {
        const index = coverage.get(left);
        if (index === undefined) return undefined;
        let pairs = sets.get(left);
        if (!pairs) {
          pairs = new Map();
          const set = sub + v.getUint16(sub + 10 + 2 * index);
          for (let i = 0; i < v.getUint16(set); i++) {
            const record = set + 2 + i * (2 + size1 + size2);
            pairs.set(v.getUint16(record), xAdvance(record + 2));
          }
          sets.set(left, pairs);
        }
        return pairs.get(right);
      };
    }
    if (format !== 2) return undefined;
    const class1 = this.#classes(sub + v.getUint16(sub + 8));
    const class2 = this.#classes(sub + v.getUint16(sub + 10));
    const class2Count = v.getUint16(sub + 14);
    return (left, right) => {
      if (!coverage.has(left)) return undefined;
      const row = sub + 16 + (class1.get(left) ?? 0) * class2Count * (size1 + size2);
      return xAdvance(row + (class2.get(right) ?? 0) * (size1 + size2));
    };
  }

  /** Glyph → coverage index. */
  #coverage(at: number): Map<number, number> {
    const v = this.#view;
    const map = new Map<number, number>();
    const count = v.getUint16(at + 2);
    if (v.getUint16(at) === 1) {
      for (let i = 0; i < count; i++) map.set(v.getUint16(at + 4 + 2 * i), i);
    } else {
      for (let i = 0; i < count; i++) {
        const range = at + 4 + 6 * i;
        const [start, end, index] = [v.getUint16(range), v.getUint16(range + 2), v.getUint16(range + 4)];
        for (let g = start; g <= end; g++) map.set(g, index + g - start);
      }
    }
    return map;
  }

  /** Glyph → class (a ClassDef table, formats 1 and 2); absent glyphs are class 0. */
  #classes(at: number): Map<number, number> {
    const v = this.#view;
    const map = new Map<number, number>();
    if (v.getUint16(at) === 1) {
      const start = v.getUint16(at + 2);
      for (let i = 0; i < v.getUint16(at + 4); i++) map.set(start + i, v.getUint16(at + 6 + 2 * i));
    } else {
      for (let i = 0; i < v.getUint16(at + 2); i++) {
        const range = at + 4 + 6 * i;
        for (let g = v.getUint16(range); g <= v.getUint16(range + 2); g++) map.set(g, v.getUint16(range + 4));
      }
    }
    return map;
  }
}
