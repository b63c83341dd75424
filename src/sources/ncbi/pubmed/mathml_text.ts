/**
 * MathML → plain text that reads like the typeset formula. Scripts use Unicode super/subscript characters
 * when every character of the script has one ("V̇O₂ₘₐₓ", "Ca²⁺"), else one fallback notation, `^(…)` and
 * `_(…)` ("x^(q)"). `mmultiscripts` prescripts come before the
 * base ("³He", "¹²⁹Xe"), `mtext` keeps its spaces (collapsed to one), fractions read `a/b` with parentheses
 * around compound parts, accents become combining marks (`mover` V with "." → V̇).
 */
import { decodeEntities } from "./xml_entities.ts";

interface Element {
  name: string;
  attrs: string;
  children: Node[];
}
type Node = Element | string;

const SUP = charTable(
  "0⁰1¹2²3³4⁴5⁵6⁶7⁷8⁸9⁹+⁺-⁻−⁻=⁼(⁽)⁾" +
    "aᵃbᵇcᶜdᵈeᵉfᶠgᵍhʰiⁱjʲkᵏlˡmᵐnⁿoᵒpᵖrʳsˢtᵗuᵘvᵛwʷxˣyʸzᶻ" +
    "AᴬBᴮDᴰEᴱGᴳHᴴIᴵJᴶKᴷLᴸMᴹNᴺOᴼPᴾRᴿTᵀUᵁVⱽWᵂ" +
    "αᵅβᵝγᵞδᵟεᵋθᶿφᵠχᵡ",
);
const SUB = charTable(
  "0₀1₁2₂3₃4₄5₅6₆7₇8₈9₉+₊-₋−₋=₌(₍)₎" +
    "aₐeₑhₕiᵢjⱼkₖlₗmₘnₙoₒpₚrᵣsₛtₜuᵤvᵥxₓ" +
    "βᵦγᵧρᵨφᵩχᵪ",
);
/** Marks written after the base as they are, never raised: x′, x*, x°. */
const ATTACHED = /^[′″‴'*∗†‡°]+$/;
/** Over/under scripts that are accents: the base takes the combining mark. */
const OVER_ACCENT: Record<string, string> = {
  ".": "\u0307",
  "˙": "\u0307",
  "·": "\u0307",
  "..": "\u0308",
  "¨": "\u0308",
  "¯": "\u0304",
  "‾": "\u0305",
  "―": "\u0304",
  "-": "\u0304",
  "^": "\u0302",
  "ˆ": "\u0302",
  "~": "\u0303",
  "˜": "\u0303",
  "→": "\u20d7",
  "⃗": "\u20d7",
};
const UNDER_ACCENT: Record<string, string> = { "_": "\u0332", "¯": "\u0331", "~": "\u0330", ".": "\u0323" };
/** Letters, digits, accents and scripts (Unicode or `^(…)`/`_(…)`): needs no parentheses in a fraction. */
const ATOM = /^(?:[\p{L}\p{N}.,′\u0300-\u036f\u20d0-\u20ff\u2070-\u209f\u1d00-\u1dbf]|[_^]\([^()]*\))*$/u;
const RELATION = /^[=<>≤≥≈≠∼≃≅≡∝→←↔⇒⇔]$/;
const TOKEN = /<(\/?)([A-Za-z][\w:.-]*)((?:\s[^>]*?)?)(\/?)>|<!--[\s\S]*?-->|([^<]+)/g;

/**
 * Text of the MathML inside `<math>…</math>` (the inner XML, namespace prefixes allowed).
 * @example mathmlToText("<mml:mmultiscripts><mml:mi>He</mml:mi><mml:mprescripts/><mml:none/><mml:mn>3</mml:mn></mml:mmultiscripts>") // "³He"
 */
export function mathmlToText(inner: string): string {
  return render(parse(inner)).replace(/[\s\u00a0]+/g, " ").trim();
}

function parse(xml: string): Element {
  const root: Element = { name: "math", attrs: "", children: [] };
  const stack = [root];
  for (const m of xml.matchAll(TOKEN)) {
    const [, closing, rawName, attrs, selfClosing, text] = m;
    const top = stack[stack.length - 1];
    if (text !== undefined) top.children.push(decodeEntities(text));
    else if (rawName === undefined) continue;
    else if (closing) {
      const name = local(rawName);
      const at = stack.findLastIndex((e) => e.name === name);
      if (at > 0) stack.length = at;
    } else {
      const el: Element = { name: local(rawName), attrs: attrs ?? "", children: [] };
      top.children.push(el);
      if (!selfClosing) stack.push(el);
    }
  }
  return root;
}

function local(name: string): string {
  return name.slice(name.indexOf(":") + 1).toLowerCase();
}

function elements(el: Element): Element[] {
  return el.children.filter((c): c is Element => typeof c !== "string");
}

function attr(el: Element, name: string): string | undefined {
  return new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(el.attrs)?.[1] ??
    new RegExp(`\\b${name}\\s*=\\s*'([^']*)'`).exec(el.attrs)?.[1];
}

/** Text content of a token element, whitespace collapsed; `keepSpace` keeps one space at the ends (mtext). */
function tokenText(el: Element, keepSpace: boolean): string {
  const raw = el.children.map((c) => typeof c === "string" ? c : render(c)).join("");
  const collapsed = raw.replace(/[\s\u00a0]+/g, " ");
  return keepSpace ? collapsed : collapsed.trim();
}

function render(node: Node | undefined): string {
  if (node === undefined) return "";
  if (typeof node === "string") return node.trim() ? node.replace(/[\s\u00a0]+/g, " ").trim() : "";
  const kids = elements(node);
  switch (node.name) {
    case "mi":
    case "mn":
    case "mglyph":
      return node.name === "mglyph" ? attr(node, "alt") ?? "" : tokenText(node, false);
    case "mo": {
      const op = tokenText(node, false);
      return RELATION.test(op) ? ` ${op} ` : op;
    }
    case "mtext":
      return tokenText(node, true);
    case "ms":
      return `"${tokenText(node, false)}"`;
    case "mspace":
      return " ";
    case "none":
    case "mprescripts":
    case "mphantom":
    case "annotation":
    case "annotation-xml":
      return "";
    case "semantics":
    case "maction":
      return render(kids[0]);
    case "msub":
      return render(kids[0]) + script(render(kids[1]), SUB, "_");
    case "msup":
      return render(kids[0]) + script(render(kids[1]), SUP, "^");
    case "msubsup":
      return render(kids[0]) + script(render(kids[1]), SUB, "_") + script(render(kids[2]), SUP, "^");
    case "mover":
      return accented(render(kids[0]), render(kids[1]), OVER_ACCENT, SUP, "^");
    case "munder":
      return accented(render(kids[0]), render(kids[1]), UNDER_ACCENT, SUB, "_");
    case "munderover":
      return accented(
        accented(render(kids[0]), render(kids[1]), UNDER_ACCENT, SUB, "_"),
        render(kids[2]),
        OVER_ACCENT,
        SUP,
        "^",
      );
    case "mmultiscripts":
      return multiscripts(kids);
    case "mfrac":
      return `${grouped(render(kids[0]))}/${grouped(render(kids[1]))}`;
    case "msqrt":
      return `√${grouped(kids.map(render).join(""))}`;
    case "mroot":
      return `${script(render(kids[1]), SUP, "^")}√${grouped(render(kids[0]))}`;
    case "mfenced": {
      const open = attr(node, "open") ?? "(";
      const close = attr(node, "close") ?? ")";
      const separator = (attr(node, "separators") ?? ",").trim().charAt(0);
      return `${open}${kids.map(render).join(separator)}${close}`;
    }
    case "mtable":
      return kids.map(render).join("; ");
    case "mtr":
    case "mlabeledtr":
      return kids.map(render).join(" ");
    default:
      return node.children.map(render).join("");
  }
}

/** base, (sub sup)* [mprescripts (sub sup)*]: prescripts go before the base, as in ³He or ¹²⁹Xe. */
function multiscripts(kids: Element[]): string {
  const [base, ...rest] = kids;
  const split = rest.findIndex((k) => k.name === "mprescripts");
  const post = split < 0 ? rest : rest.slice(0, split);
  const pre = split < 0 ? [] : rest.slice(split + 1);
  const pairs = (list: Element[], order: "sup-first" | "sub-first") => {
    let out = "";
    for (let i = 0; i < list.length; i += 2) {
      const sub = script(render(list[i]), SUB, "_");
      const sup = script(render(list[i + 1]), SUP, "^");
      out += order === "sup-first" ? sup + sub : sub + sup;
    }
    return out;
  };
  return pairs(pre, "sup-first") + render(base) + pairs(post, "sub-first");
}

/** A script in Unicode when every character has a form, else `^(…)` (`_(…)` for subscripts). */
function script(text: string, table: Record<string, string>, mark: "^" | "_"): string {
  const t = text.trim();
  if (!t) return "";
  if (ATTACHED.test(t)) return t;
  const chars = [...t];
  if (chars.every((c) => table[c] !== undefined)) return chars.map((c) => table[c]).join("");
  return `${mark}(${t})`;
}

/** An accent over (under) the base becomes a combining mark on each of its characters; other scripts are raised. */
function accented(
  base: string,
  over: string,
  accents: Record<string, string>,
  table: Record<string, string>,
  mark: "^" | "_",
): string {
  const combining = accents[over.trim()];
  if (combining && base) return [...base].map((c) => c + combining).join("");
  return base + script(over, table, mark);
}

/** "a1b2" → { a: "1", b: "2" }: pairs of characters, plain then its raised or lowered form. */
function charTable(pairs: string): Record<string, string> {
  const chars = [...pairs];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < chars.length; i += 2) out[chars[i]] = chars[i + 1];
  return out;
}

/** Parentheses around a compound numerator/denominator/radicand: (a+b)/c, but 1/2 and x/y bare. */
function grouped(text: string): string {
  const t = text.trim();
  if (ATOM.test(t)) return t;
  if (/^\(.*\)$/.test(t)) return t;
  return `(${t})`;
}
