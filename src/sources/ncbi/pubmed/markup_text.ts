/**
 * Inline markup → readable text. PubMed titles and abstracts carry `<i> <b> <u> <sup> <sub>` and MathML:
 * the text inside the tags is content ("LE<sub>min</sub>" reads "LEmin"), so tags are dropped and their
 * text kept. Works on raw XML (stop-node content), so entities are decoded last: an escaped `&lt;` in the
 * text is never mistaken for a tag.
 */

const MATH = /<((?:[\w-]+:)?math)\b([^>]*)>([\s\S]*?)<\/\1>/g;
const ALTTEXT = /\balttext\s*=\s*"([^"]*)"/;
const BLOCK_TAG = /<\/?(?:p|br|div|li|ul|ol|list|list-item|title|sec)\b[^>]*>/gi;
const ANY_TAG = /<\/?[A-Za-z][\w:.-]*(?:\s[^>]*)?\/?>/g;
const COMMENT_OR_CDATA = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>/g;
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * @example markupToText('LE<sub>min</sub> &lt; 3') // "LEmin < 3"
 */
export function markupToText(raw: string): string {
  if (!raw) return "";
  const noMath = raw.replace(COMMENT_OR_CDATA, (_m, cdata?: string) => cdata === undefined ? "" : escapeText(cdata))
    .replace(MATH, (_m, _tag: string, attrs: string, inner: string) => ` ${mathText(attrs, inner)} `);
  const plain = noMath.replace(BLOCK_TAG, " ").replace(ANY_TAG, "");
  return decodeEntities(plain.replace(/[ \t\r\n\f\v]+/g, " ").trim());
}

/** MathML → its alttext when given, else the concatenated token text (whitespace between elements is layout). */
function mathText(attrs: string, inner: string): string {
  const alt = ALTTEXT.exec(attrs)?.[1];
  if (alt && alt.trim()) return alt.trim();
  return inner.replace(/>\s+</g, "><").replace(ANY_TAG, "").trim();
}

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (match, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED[name] ?? match;
  });
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}
