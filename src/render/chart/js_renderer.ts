/**
 * The chart renderer rasterize.ts loads on the first chart: draw.ts on a canvas, then PNG. Text is set in Noto Sans:
 * the Latin subset (ASCII, Latin-1, punctuation) read on load, the Greek and Latin Extended subsets only when a chart
 * prints a character beyond Latin-1; a character none of them has is drawn as U+FFFD (the SVG resource keeps it).
 */
import { NOTO_SANS_LATIN_SFNT_BASE64 } from "./assets/noto_sans_latin.ts";
import { drawSvg, FontSet } from "./draw.ts";
import { Font } from "./font.ts";
import { encodePng } from "./png.ts";

// Plain base64, decoded natively: nothing here loads node:zlib, whose first use cost the first chart ~5 ms (#36).
const latin = new FontSet([new Font(Uint8Array.fromBase64(NOTO_SANS_LATIN_SFNT_BASE64))]);
let extended: Promise<FontSet> | undefined;

/** Latin, then Greek, then Latin Extended: what text beyond Latin-1 is set in (gzipped, so node:zlib loads here). */
export function extendedFonts(): Promise<FontSet> {
  extended ??= Promise.all([
    import("./asset_bytes.ts"),
    import("./assets/noto_sans_greek.ts"),
    import("./assets/noto_sans_latin_ext.ts"),
  ])
    .then(([{ assetBytes }, greek, latinExt]) =>
      new FontSet([
        ...latin.fonts,
        new Font(assetBytes(greek.NOTO_SANS_GREEK_SFNT_GZIP_BASE64)),
        new Font(assetBytes(latinExt.NOTO_SANS_LATIN_EXT_SFNT_GZIP_BASE64)),
      ])
    )
    .catch((error) => {
      extended = undefined;
      throw error;
    });
  return extended;
}

/** The SVG as a PNG of its own size; throws UnsupportedSvg (draw.ts) for SVG outside the charts' subset. */
export async function renderPng(svg: string): Promise<Uint8Array> {
  const canvas = drawSvg(svg, /[^\t\n\r\x20-\xff]/.test(svg) ? await extendedFonts() : latin);
  return encodePng(canvas.rgb, canvas.width, canvas.height);
}
