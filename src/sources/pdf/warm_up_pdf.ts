/**
 * A typeset-looking PDF built in memory for the extractor's warm-up runs. V8 runs pdf.js several times
 * slower on a process's first documents than once its font and text-layout code is optimised; extracting
 * this a few times in the background does that ahead of the first search. It has what papers have:
 * embedded CFF (Type1C) fonts with built-in, WinAnsi and /Differences encodings and a ToUnicode CMap,
 * Flate-compressed content streams, TJ kerning arrays, Td/TD/Tm/T* moves, superscripts, two columns.
 */
import { type PdfObject, writePdf } from "./pdf_writer.ts";

const WORDS = ("the of protein binding analysis results model network influence nodes data method cell " +
  "gene expression sample measured effect significant observed structure compound reaction rate field " +
  "spectrum temperature pressure energy quantum theory algorithm graph distribution parameter estimate")
  .split(" ");

/** Embedded fonts per document: each is parsed and converted on its own, as in a paper. */
const FONTS = 8;
/** Glyphs of the embedded font: .notdef and ISOAdobe SIDs 1–95 (space … asciitilde). */
const GLYPHS = 96;

/** A deterministic pseudo-random sequence (the PDF is the same on every start). */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

// ---- the CFF font program -------------------------------------------------------------------------

/** A Type 2 charstring number (the one-, two- and three-byte forms; enough for glyph outlines). */
function csNumber(v: number): number[] {
  if (v >= -107 && v <= 107) return [v + 139];
  if (v >= 108 && v <= 1131) return [((v - 108) >> 8) + 247, (v - 108) & 0xff];
  if (v >= -1131 && v <= -108) return [((-v - 108) >> 8) + 251, (-v - 108) & 0xff];
  return [28, (v >> 8) & 0xff, v & 0xff];
}

/** A DICT integer in its five-byte form, so offsets can be patched in without changing sizes. */
function dictInt(v: number): number[] {
  return [29, (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

/** A CFF INDEX of the given items (offsets four bytes wide). */
function cffIndex(items: number[][]): number[] {
  if (items.length === 0) return [0, 0];
  const out = [(items.length >> 8) & 0xff, items.length & 0xff, 4];
  let offset = 1;
  out.push(...dictInt(offset).slice(1));
  for (const item of items) {
    offset += item.length;
    out.push(...dictInt(offset).slice(1));
  }
  for (const item of items) out.push(...item);
  return out;
}

/** One glyph: a box whose width and height vary with the glyph, as a real outline's would. */
function glyph(gid: number): number[] {
  if (gid === 0) return [...csNumber(500), 14]; // .notdef: width, endchar
  const width = 250 + (gid * 37) % 450;
  const height = 400 + (gid * 53) % 300;
  return [
    ...csNumber(width),
    ...csNumber(40),
    ...csNumber(0),
    21, // rmoveto
    ...csNumber(width - 80),
    ...csNumber(0),
    ...csNumber(0),
    ...csNumber(height),
    ...csNumber(80 - width),
    ...csNumber(0),
    5, // rlineto
    14, // endchar
  ];
}

/** A bare-bones CFF font: standard encoding, ISOAdobe charset, {@link GLYPHS} box glyphs. */
function cffFont(name: string): number[] {
  const header = [1, 0, 4, 4];
  const names = cffIndex([[...new TextEncoder().encode(name)]]);
  const strings = cffIndex([]);
  const globalSubrs = cffIndex([]);
  const charStrings = cffIndex(Array.from({ length: GLYPHS }, (_, gid) => glyph(gid)));
  const privateDict = [139, 20, 139, 21]; // defaultWidthX 0, nominalWidthX 0
  const topDict = (charStringsAt: number, privateAt: number) => [
    ...dictInt(0),
    ...dictInt(-200),
    ...dictInt(1000),
    ...dictInt(900),
    5, // FontBBox
    ...dictInt(charStringsAt),
    17, // CharStrings
    ...dictInt(privateDict.length),
    ...dictInt(privateAt),
    18, // Private
  ];
  const topSize = cffIndex([topDict(0, 0)]).length;
  const charStringsAt = header.length + names.length + topSize + strings.length + globalSubrs.length;
  const privateAt = charStringsAt + charStrings.length;
  const top = cffIndex([topDict(charStringsAt, privateAt)]);
  return [...header, ...names, ...top, ...strings, ...globalSubrs, ...charStrings, ...privateDict];
}

// ---- the pages --------------------------------------------------------------------------------------

/** PDF string literal escaping. */
function literal(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A decimal as typesetters write them (coordinates and sizes are rarely whole numbers). */
function decimal(v: number): string {
  return v.toFixed(4).replace(/\.?0+$/, "");
}

/**
 * One page: two columns of lines in the styles of TeX (words as kerned pieces with the spaces as gaps),
 * of word processors (literal spaces, word and character spacing) and of plain `Tj`, with decimal
 * coordinates, font switches, a superscript and some graphics between the text blocks.
 */
function pageContent(page: number): string {
  const random = sequence(page + 1);
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  const ops: string[] = ["q", "0.5 w 0 0 1 RG 72 60 468 0.6 re S", "1 0 0 1 0.25 -0.5 cm"];
  for (let column = 0; column < 2; column++) {
    ops.push("BT", `/F${page % FONTS} 9.9626 Tf`, "11.9552 TL", `1 0 0 1 ${decimal(72 + column * 252.5)} 720.3 Tm`);
    for (let line = 0; line < 24; line++) {
      if (line % 4 === 0) ops.push(`/F${(line / 4 + page + column) % FONTS} ${decimal(8.9664 + (line % 3))} Tf`);
      const words = Array.from({ length: 8 }, word);
      const style = (line + column) % 3;
      if (style === 0) {
        // TeX: kerned pieces, no space characters, the gaps between words wide enough to be spaces.
        const pieces = words.map((w) =>
          `${literal(w.slice(0, 3))}${decimal(random() * 30 - 15)}${literal(w.slice(3))}`
        );
        ops.push(`[${pieces.join(`${decimal(-333.3 - random() * 20)}`)}]TJ`);
      } else if (style === 1) {
        ops.push(`${decimal(random() * 0.3)} Tw ${decimal(random() * 0.05)} Tc`, `${literal(words.join(" "))} Tj`);
      } else {
        ops.push(`${literal(words.slice(0, 4).join(" "))}'`, `${literal(words.slice(4).join(" "))} Tj`);
      }
      if (line % 9 === 4) ops.push(`0 ${decimal(3.985)} Td`, "/F1 6.9738 Tf", "(2)Tj", `0 ${decimal(-3.985)} Td`);
      ops.push(line % 5 === 0 ? `0 ${decimal(-11.9552 - random())} TD` : "T*");
    }
    ops.push("ET");
  }
  ops.push("Q");
  return ops.join("\n");
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A stream object's body: its dictionary, then the (binary) data. */
function stream(dict: string, data: Uint8Array): PdfObject {
  return [`<< ${dict} /Length ${data.length} >>\nstream\n`, data, "\nendstream"];
}

/** The font objects: font dictionary, descriptor, CFF program (and a ToUnicode CMap for the last). */
function fontObjects(n: number, firstId: number): PdfObject[] {
  const name = `WARMUP+Serif${n}`;
  const widths = Array.from({ length: 95 }, (_, i) => 250 + ((i + 1) * 37) % 450).join(" ");
  // Built-in (no /Encoding), WinAnsi, and a /Differences encoding, as papers mix them.
  const encoding = n % 3 === 0
    ? ""
    : n % 3 === 1
    ? "/Encoding /WinAnsiEncoding"
    : "/Encoding << /Type /Encoding /Differences [39 /quoteright 96 /quoteleft] >>";
  const toUnicode = n === FONTS - 1 ? `/ToUnicode ${firstId + 3} 0 R` : "";
  const objects = [
    [
      `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /FirstChar 32 /LastChar 126 /Widths [${widths}] ` +
      `/FontDescriptor ${firstId + 1} 0 R ${encoding} ${toUnicode} >>`,
    ],
    [
      `<< /Type /FontDescriptor /FontName /${name} /Flags 34 /FontBBox [0 -200 1000 900] /ItalicAngle 0 ` +
      `/Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 /FontFile3 ${firstId + 2} 0 R >>`,
    ],
    stream("/Subtype /Type1C", new Uint8Array(cffFont(name))),
  ];
  if (toUnicode) {
    const cmap = new TextEncoder().encode([
      "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
      "/CMapName /WarmUp def 1 begincodespacerange <00> <FF> endcodespacerange",
      "1 beginbfrange <20> <7E> <0020> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end",
    ].join("\n"));
    objects.push(stream("", cmap));
  }
  return objects;
}

/** Builds the warm-up PDF: `pages` pages (default 8) of about 430 words each. */
export async function warmUpPdf(pages = 8): Promise<Uint8Array> {
  const objects: PdfObject[] = [["<< /Type /Catalog /Pages 2 0 R >>"], []];
  const fontRefs: string[] = [];
  for (let n = 0; n < FONTS; n++) {
    fontRefs.push(`/F${n} ${objects.length + 1} 0 R`);
    objects.push(...fontObjects(n, objects.length + 1));
  }
  const kids: string[] = [];
  for (let page = 0; page < pages; page++) {
    const id = objects.length + 1;
    kids.push(`${id} 0 R`);
    objects.push(
      [
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${fontRefs.join(" ")} >> >> ` +
        `/Contents ${id + 1} 0 R >>`,
      ],
      stream("/Filter /FlateDecode", await deflate(new TextEncoder().encode(pageContent(page)))),
    );
  }
  objects[1] = [`<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`];

  return writePdf(objects);
}
