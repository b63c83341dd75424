/**
 * Inline markup → readable text. PubMed titles and abstracts carry `<i> <b> <u> <sup> <sub>` and MathML:
 * the text inside the tags is content ("LE<sub>min</sub>" reads "LEmin"), so tags are dropped and their
 * text kept; MathML is rendered as the formula reads (mathml_text.ts). Works on raw XML (stop-node
 * content), so entities are decoded last: an escaped `&lt;` in the text is never mistaken for a tag.
 */
import { mathmlToText } from "./mathml_text.ts";
import { decodeEntities } from "./xml_entities.ts";

export { decodeEntities };

const MATH = /<((?:[\w-]+:)?math)\b([^>]*)>([\s\S]*?)<\/\1>/g;
const ALTTEXT = /\balttext\s*=\s*"([^"]*)"/;
const BLOCK_TAG = /<\/?(?:p|br|div|li|ul|ol|list|list-item|title|sec)\b[^>]*>/gi;
const ANY_TAG = /<\/?[A-Za-z][\w:.-]*(?:\s[^>]*)?\/?>/g;
const COMMENT_OR_CDATA = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>/g;

/**
 * @example markupToText('LE<sub>min</sub> &lt; 3') // "LEmin < 3"
 */
export function markupToText(raw: string): string {
  if (!raw) return "";
  const noMath = raw.replace(COMMENT_OR_CDATA, (_m, cdata?: string) => cdata === undefined ? "" : escapeText(cdata))
    .replace(MATH, (_m, _tag: string, attrs: string, inner: string) => mathText(attrs, inner));
  const plain = noMath.replace(BLOCK_TAG, " ").replace(ANY_TAG, "");
  return decodeEntities(plain.replace(/[ \t\r\n\f\v]+/g, " ").trim());
}

/**
 * MathML rendered as text ({@link mathmlToText}: scripts, prescripts, mtext spacing), its alttext only
 * when the MathML holds nothing readable. Re-escaped: the result passes through tag stripping and entity
 * decoding like the text around it, so a rendered "<" survives as a character.
 */
function mathText(attrs: string, inner: string): string {
  const rendered = mathmlToText(inner) || decodeEntities(ALTTEXT.exec(attrs)?.[1]?.trim() ?? "");
  return escapeText(rendered);
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}
