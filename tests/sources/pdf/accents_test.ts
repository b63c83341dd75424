/**
 * Spacing accents joined to the letter they sit on (accents.ts): laid-out pages of made-up glyph boxes, for each
 * accent kind and the places PDFium leaves accents (after the word, between stray spaces, at a line end, on
 * another word), and real papers read through PDFium whose names pdftotext gives accented.
 */
import assert from "node:assert/strict";
import { type Box, composeAccents, composed, type Glyphs } from "../../../src/sources/pdf/accents.ts";
import { openPdfium } from "../../../src/sources/pdf/pdfium_engine.ts";
import { fixtureBytes } from "../../helpers/runtime.ts";

/** One character of a made-up page, in the engine's order; generated spaces and line ends have no extent. */
interface Glyph {
  ch: string;
  box: Box;
}

/** Font size of the made-up pages, in points. */
const SIZE = 10;
/** Each letter's advance; its box is 4.5 wide. */
const ADVANCE = 5;
const TALL = /[A-Zbdfhklt(0-9)]/;

function letters(word: string, x: number, baseline = 0): Glyph[] {
  return Array.from(word, (ch, i) => ({
    ch,
    box: {
      left: x + i * ADVANCE,
      right: x + i * ADVANCE + 4.5,
      bottom: baseline,
      top: baseline + (TALL.test(ch) ? 7 : 5),
    },
  }));
}

/** An accent drawn over (a cedilla or ogonek: under) `letter`, as a typesetter places it. */
function accent(ch: string, letter: Glyph): Glyph {
  const centre = (letter.box.left + letter.box.right) / 2;
  const below = ch === "\u00B8" || ch === "\u02DB";
  const bottom = below ? letter.box.bottom - 2 : letter.box.top + 0.5;
  return { ch, box: { left: centre - 1.2, right: centre + 1.2, bottom, top: bottom + 1.5 } };
}

function space(x: number, baseline = 0): Glyph {
  return { ch: " ", box: { left: x, right: x, bottom: baseline, top: baseline } };
}

function lineEnd(x: number, baseline = 0): Glyph[] {
  return ["\r", "\n"].map((ch) => ({ ch, box: { left: x, right: x, bottom: baseline, top: baseline } }));
}

/** The page's text and an engine over its glyphs that answers as PDFium does (FPDFText_GetCharIndexAtPos included). */
function page(glyphs: Glyph[]): { text: string; glyphs: Glyphs } {
  const inside = (b: Box, x: number, y: number, t: number) =>
    x >= b.left - t && x <= b.right + t && y >= b.bottom - t && y <= b.top + t;
  return {
    text: glyphs.map((g) => g.ch).join(""),
    glyphs: {
      charIndex: (i) => (i >= 0 && i < glyphs.length ? i : -1),
      textIndex: (i) => (i >= 0 && i < glyphs.length ? i : -1),
      unicode: (i) => glyphs[i]?.ch.codePointAt(0) ?? 0,
      box: (i) => glyphs[i]?.box,
      fontSize: () => SIZE,
      charAt(x, y, tolerance) {
        const hit = glyphs.findIndex((g) => g.box.right > g.box.left && inside(g.box, x, y, 0));
        if (hit >= 0) return hit;
        let best = -1;
        let distance = Infinity;
        glyphs.forEach((g, i) => {
          if (!inside(g.box, x, y, tolerance)) return;
          const d = Math.min(Math.abs(x - g.box.left), Math.abs(x - g.box.right)) +
            Math.min(Math.abs(y - g.box.bottom), Math.abs(y - g.box.top));
          if (d < distance) [best, distance] = [i, d];
        });
        return best;
      },
    },
  };
}

function compose(glyphs: Glyph[]): string {
  const { text, glyphs: engine } = page(glyphs);
  return composeAccents(text, engine);
}

/** `word` with `mark` drawn over (under) its letter at `at`, the accent given right after that letter. */
function accented(word: string, at: number, mark: string): string {
  const glyphs = letters(word, 0);
  glyphs.splice(at + 1, 0, accent(mark, glyphs[at]));
  return compose(glyphs);
}

Deno.test("each spacing accent over its letter becomes the precomposed letter", () => {
  const cases: [string, number, string, string][] = [
    ["Farber", 1, "\u00A8", "Färber"],
    ["Perez", 1, "\u00B4", "Pérez"],
    ["Perez", 1, "\u02CA", "Pérez"],
    ["voila", 4, "\u0060", "voilà"],
    ["voila", 4, "\u02CB", "voilà"],
    ["hotel", 1, "\u02C6", "hôtel"],
    ["hotel", 1, "^", "hôtel"],
    ["manana", 2, "\u02DC", "mañana"],
    ["manana", 2, "~", "mañana"],
    ["Jurmala", 1, "\u00AF", "Jūrmala"],
    ["Jurmala", 1, "\u02C9", "Jūrmala"],
    ["Dogan", 2, "\u02D8", "Doğan"],
    ["zolw", 0, "\u02D9", "żolw"],
    ["Angstrom", 0, "\u02DA", "Ångstrom"],
    ["Erdos", 3, "\u02DD", "Erdős"],
    ["Tesanovic", 2, "\u02C7", "Tešanovic"],
    ["Lourenco", 6, "\u00B8", "Lourenço"],
    ["wegiel", 1, "\u02DB", "węgiel"],
  ];
  for (const [word, at, mark, expected] of cases) {
    assert.equal(accented(word, at, mark), expected, `U+${mark.codePointAt(0)!.toString(16)} over ${word}[${at}]`);
  }
});

Deno.test("an accent given before its letter joins it too, uppercase included", () => {
  const word = letters("Ecole", 0);
  assert.equal(compose([accent("\u00B4", word[0]), ...word]), "École", "at the very start of the page");
  const naive = letters("naıve", 0);
  assert.equal(compose([...naive.slice(0, 2), accent("\u00A8", naive[2]), ...naive.slice(2)]), "naïve");
});

Deno.test("a dotless i or j under an accent above becomes i or j; under a dot, plain i", () => {
  const martin = letters("Martın", 0);
  assert.equal(compose([...martin.slice(0, 4), accent("\u00B4", martin[4]), ...martin.slice(4)]), "Martín");
  assert.equal(composed("\u0131", "\u0301"), "í");
  assert.equal(composed("\u0237", "\u030C"), "ǰ");
  assert.equal(composed("\u0131", "\u0307"), "i");
  assert.equal(composed("E", "\u0301"), "É");
  assert.equal(composed("q", "\u0301"), "q\u0301", "no precomposed form: the letter and the combining mark");
});

Deno.test("an accent left after its word loses the spaces it brought, and a word gap stays one space", () => {
  const farber = letters("Farber", 0);
  const year = letters("(2019)", 33); // 3.5 pt after "Farber": a word gap
  assert.equal(
    compose([...farber, space(29.5), accent("\u00A8", farber[1]), space(30), ...year]),
    "Färber (2019)",
  );
  const comma = letters(",", 30); // 0.5 pt after "Muller": no word gap
  const muller = letters("Muller", 0);
  assert.equal(compose([...muller, space(29.5), accent("\u00A8", muller[1]), space(30), ...comma]), "Müller,");
  assert.equal(compose([...farber, space(29.5), accent("\u00A8", farber[1])]), "Färber", "at the page's end");
});

Deno.test("stray spaces either side of an accent inside a word are dropped (P ´ erez = Pérez)", () => {
  const p = letters("P", 0);
  const erez = letters("erez", ADVANCE);
  assert.equal(compose([...p, space(4.5), accent("\u00B4", erez[0]), space(4.8), ...erez]), "Pérez");
  // "J ´ es´ us": one accent between stray spaces, one right after the letter before its own.
  const j = letters("J", 0);
  const esus = letters("esus", ADVANCE);
  assert.equal(
    compose([
      ...j,
      space(4.5),
      accent("\u00B4", esus[0]),
      space(4.8),
      ...esus.slice(0, 2),
      accent("\u00B4", esus[2]),
      space(14.6),
      ...esus.slice(2),
    ]),
    "Jésús",
  );
});

Deno.test("an accent given on another word or another line joins the letter under it", () => {
  // "Perez P ´ erez": the first word's accent comes after the second word's first letter.
  const first = letters("Perez", 0);
  const second = letters("Perez", 30);
  const glyphs = [
    ...first,
    space(25),
    second[0],
    space(34.5),
    accent("\u00B4", first[1]),
    space(35),
    ...second.slice(1, 2),
    ...second.slice(2),
  ];
  assert.equal(compose(glyphs), "Pérez Perez");
  // "Com- ´\r\nputation": an accent at a line end, over a letter of the line above ("Montreal").
  const above = letters("Montreal", 0, 12);
  const com = letters("Com-", 50);
  const next = letters("putation", 0);
  assert.equal(
    compose([...above, space(40, 12), ...com, space(70), accent("\u00B4", above[5]), ...lineEnd(71), ...next]),
    "Montréal Com-\r\nputation",
  );
  // And at a line's start, over a letter of the line before it ("Zhiyong ˘\r\nLu", the breve on "Dogan").
  const dogan = letters("Dogan", 0, 12);
  const lu = letters("Lu", 0);
  assert.equal(compose([...dogan, ...lineEnd(25, 12), accent("\u02D8", dogan[2]), space(3), ...lu]), "Doğan\r\nLu");
});

Deno.test("accents over no letter stay as they are: backticks, carets and tildes in code, an accent on its own", () => {
  // `code`: a backtick has an advance of its own, beside the letters, at accent height.
  const tick = (x: number): Glyph => ({ ch: "`", box: { left: x + 1.5, right: x + 3, bottom: 4, top: 7 } });
  const code = [tick(0), ...letters("code", ADVANCE), tick(25)];
  assert.equal(compose(code), "`code`");
  // x^2 and ~3.8B: a caret or a tilde between characters, over none of them.
  const caret: Glyph = { ch: "^", box: { left: 5.5, right: 8.5, bottom: 4.5, top: 7 } };
  assert.equal(compose([...letters("x", 0), caret, ...letters("2", 2 * ADVANCE)]), "x^2");
  const tilde: Glyph = { ch: "~", box: { left: 6, right: 9, bottom: 2, top: 3.5 } };
  assert.equal(compose([...letters("(", 0), tilde, ...letters("3", 2 * ADVANCE)]), "(~3");
  // An acute discussed as a sign: nothing under it.
  const lone: Glyph = { ch: "\u00B4", box: { left: 31, right: 33, bottom: 6, top: 7.5 } };
  assert.equal(compose([...letters("the", 0), space(15), lone, space(35), ...letters("sign", 38)]), "the ´ sign");
  // Over a digit or punctuation: no letter to join.
  const digit = letters("5", 0);
  assert.equal(compose([...digit, accent("\u00A8", { ...digit[0], box: { ...digit[0].box, top: 7 } })]), "5¨");
});

Deno.test("an accent next to its letter is joined from the two neighbours' boxes, without a search of the page", () => {
  const word = letters("Mitrovic", 0);
  const { text, glyphs } = page([...word, accent("\u00B4", word[7]), ...lineEnd(40)]);
  const noSearch: Glyphs = {
    ...glyphs,
    charAt: () => {
      throw new Error("searched the page");
    },
  };
  assert.equal(composeAccents(text, noSearch), "Mitrović\r\n");
});

Deno.test("an accent drawn twice over one letter (overprinted bold) marks it once", () => {
  const word = letters("cafe", 0);
  assert.equal(compose([...word, accent("\u00B4", word[3]), accent("\u00B4", word[3])]), "café");
});

Deno.test("an accent before PDFium's soft-hyphen mark loses its space as at a line end", () => {
  const word = letters("Summa", 0);
  const muller = letters("Muller", 0, 12);
  const hyphen: Glyph = { ch: "\uFFFE", box: { left: 25, right: 27, bottom: 2, top: 3 } };
  assert.equal(
    compose([...muller, ...lineEnd(30, 12), ...word, space(24.6), accent("\u00A8", muller[1]), hyphen]),
    "Müller\r\nSumma\uFFFE",
  );
});

Deno.test("an accent whose engine character does not match the text is left alone", () => {
  const word = letters("Farber", 0);
  const { text, glyphs } = page([...word, accent("\u00A8", word[1])]);
  const shifted: Glyphs = { ...glyphs, charIndex: (i) => glyphs.charIndex(i - 1) };
  assert.equal(composeAccents(text, shifted), "Farber¨");
});

Deno.test("characters outside the BMP before an accent do not shift it off its letter", () => {
  // The engine counts 𝑥 (U+1D465) once; the text holds it as two UTF-16 units.
  const glyphs = [{ ch: "𝑥", box: { left: 0, right: 4.5, bottom: 0, top: 5 } }, space(4.5), ...letters("Farber", 10)];
  glyphs.push(accent("\u00A8", glyphs[3]));
  assert.equal(compose(glyphs), "𝑥 Färber");
});

Deno.test("text without spacing accents is returned as it is, without asking the engine", () => {
  const refuse = () => {
    throw new Error("the engine was asked");
  };
  const engine: Glyphs = {
    charIndex: refuse,
    textIndex: refuse,
    unicode: refuse,
    box: refuse,
    fontSize: refuse,
    charAt: refuse,
  };
  const text = "Färber and Pérez (2019), naïve café\r\n";
  assert.equal(composeAccents(text, engine), text);
});

/** PDFium's text of the PDF (as the extractor reads it). */
async function pdfiumText(fixture: string): Promise<string> {
  const doc = await openPdfium(fixtureBytes(fixture));
  try {
    return Array.from({ length: doc.pageCount }, (_, i) => doc.pageText(i + 1)).join("\f");
  } finally {
    doc.close();
  }
}

Deno.test("the S2ORC paper's accented names come out as pdftotext gives them, with no accent left apart", async () => {
  const text = await pdfiumText("pdf/papermage__2020.acl-main.447.pdf");
  for (
    const name of [
      "Saier and Färber (2019)",
      "Färber, 2020)",
      "Martín Pérez Pérez, Jésús López Santa-",
      "Gael Pérez Rodríguez",
      "Oyarzábal, Anália\nLourenço",
      "Mitrović\nand Müller, 2015)",
      "Montréal, Canada",
      "Doğan et al. (2014)",
    ]
  ) assert.ok(text.includes(name), name);
  assert.doesNotMatch(text, /[\u00A8\u00B4\u02D8\u00B8]/, "no spacing accent left");
});

Deno.test("accents in two more papers: Hölzle, Lü, É. Tardos and a 'socia ´ l' split no more", async () => {
  const mapReduce = await pdfiumText("pdf/scienceparse__map-reduce.pdf");
  assert.ok(mapReduce.includes("Urs Hölzle. Web"));
  const superscript = await pdfiumText("pdf/scienceparse__superscripttest.pdf");
  assert.ok(superscript.includes("L. Lü et al. [39]"));
  assert.ok(superscript.includes("É. Tardos, Maximizing the spread of influence through a social network"));
});
