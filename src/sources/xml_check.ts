/**
 * fast-xml-parser is lenient: a cut-off or mangled body parses "successfully" into fewer records, which
 * would turn a network fault into a quietly short answer. Every XML body is checked with this first.
 */
import { XMLValidator } from "npm:fast-xml-parser@5.12.1";

/** Returns what is wrong with an XML document (e.g. `unclosed elements: feed, entry, line 40`), or undefined. */
export function xmlProblem(xml: string): string | undefined {
  const result = XMLValidator.validate(xml);
  if (result === true) return undefined;
  const unclosed = /^Invalid '\[(.*)\]' found\.$/s.exec(result.err.msg);
  const what = unclosed
    ? `unclosed elements: ${unclosed[1].replace(/[\s"]+/g, "").split(",").join(", ")}`
    : result.err.msg;
  return `${what}, line ${result.err.line}`;
}
