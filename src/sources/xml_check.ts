/**
 * fast-xml-parser is lenient: a cut-off or mangled body parses "successfully" into fewer records, which
 * would turn a network fault into a quietly short answer. Every XML body is checked with this first.
 * Before the validator, one cheap pass bounds the work a hostile body can ask of the parsers (which
 * recurse): nesting depth and entity references. Both run inside the source's parse function, so for a
 * body of 1 MiB or more they run on the parse worker (parse_off_thread.ts): the validator alone takes
 * ~0.4 s on 26 MB, the pass ~30 ms.
 */
import { XMLValidator } from "npm:fast-xml-parser@5.12.1";

/** Deeper than any real record (JATS with MathML stays well under 100); recursive walkers overflow near 10⁴. */
export const MAX_XML_DEPTH = 256;
/** Entity references allowed per body: at least this many… */
const MIN_ENTITY_BUDGET = 10_000;
/** …and one per this many characters (real records: at most one per ~20, escaped markup in titles; hostile: one per 9). */
const CHARS_PER_ENTITY = 16;

/** Returns what is wrong with an XML document (e.g. `unclosed elements: feed, entry, line 40`), or undefined. */
export function xmlProblem(xml: string): string | undefined {
  const excess = xmlExcess(xml);
  if (excess) return excess;
  const result = XMLValidator.validate(xml);
  if (result === true) return undefined;
  const unclosed = /^Invalid '\[(.*)\]' found\.$/s.exec(result.err.msg);
  const what = unclosed
    ? `unclosed elements: ${unclosed[1].replace(/[\s"]+/g, "").split(",").join(", ")}`
    : result.err.msg;
  return `${what}, line ${result.err.line}`;
}

/**
 * One linear pass (indexOf, no allocation per element): says so when the body nests deeper than
 * MAX_XML_DEPTH or holds more entity references than a record of its size could, else undefined.
 * Comments, CDATA and processing instructions are skipped whole.
 */
export function xmlExcess(xml: string): string | undefined {
  const entityBudget = Math.max(MIN_ENTITY_BUDGET, Math.floor(xml.length / CHARS_PER_ENTITY));
  let entities = 0;
  for (let at = xml.indexOf("&"); at >= 0; at = xml.indexOf("&", at + 1)) {
    if (++entities > entityBudget) {
      return `over ${entityBudget} entity references in ${xml.length} characters, more than any real record holds`;
    }
  }
  let depth = 0;
  for (let at = xml.indexOf("<"); at >= 0 && at < xml.length; at = xml.indexOf("<", at)) {
    const next = xml.charCodeAt(at + 1);
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const close = xml.startsWith("<!--", at) ? "-->" : xml.startsWith("<![CDATA[", at) ? "]]>" : ">";
      const end = xml.indexOf(close, at + 2);
      if (end < 0) return undefined; // unterminated: the validator says where
      at = end + close.length;
      continue;
    }
    const end = xml.indexOf(">", at + 1);
    if (end < 0) return undefined;
    if (next === 0x2f /* / */) depth--;
    else if (xml.charCodeAt(end - 1) !== 0x2f) {
      if (++depth > MAX_XML_DEPTH) {
        return `elements nested deeper than ${MAX_XML_DEPTH} levels, which no real record does`;
      }
    }
    at = end + 1;
  }
  return undefined;
}
