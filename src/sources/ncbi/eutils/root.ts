/**
 * The envelope every E-utilities XML answer shares: one named root element, and a root-level `<ERROR>`
 * for a fatal failure. A body without the root (an HTML error page that happens to parse, another
 * utility's answer) is an upstream fault, never an empty result.
 */
import { ToolError } from "../../../core/errors.ts";
import { asArray, text, type XmlNode } from "./xml.ts";

/**
 * The root element `name` of a parsed E-utilities body, or an UPSTREAM_ERROR naming `utility` and `url`.
 *
 * @example
 * const root = eutilsRoot(parseNcbiXml(xml, url, ["Id"]), "eSearchResult", "ESearch", url);
 */
export function eutilsRoot(doc: XmlNode, name: string, utility: string, url: string): XmlNode {
  const root = doc[name] as XmlNode | undefined;
  if (!root || typeof root !== "object") {
    throw new ToolError(
      "UPSTREAM_ERROR",
      `NCBI ${utility} answered without an ${name} (${url})`,
      "Retry shortly; NCBI may be degraded.",
    );
  }
  return root;
}

/**
 * The `<DocumentSummary>` elements of a parsed ESummary version 2.0 body, in NCBI's order (per-uid
 * `<error>` documents included: each caller decides what one bad id means). A fatal `<ERROR>` throws
 * UPSTREAM_ERROR with the recovery hint `hintFor(error)` returns.
 *
 * @example
 * const docs = eSummaryDocuments(parseNcbiXml(xml, url, ["DocumentSummary"]), url, () => "Retry shortly.");
 */
export function eSummaryDocuments(doc: XmlNode, url: string, hintFor: (error: string) => string): XmlNode[] {
  const root = eutilsRoot(doc, "eSummaryResult", "ESummary", url);
  const fatal = text(root.ERROR).trim();
  if (fatal) throw new ToolError("UPSTREAM_ERROR", `NCBI ESummary failed: ${fatal}`, hintFor(fatal));
  const set = root.DocumentSummarySet as XmlNode | undefined;
  return asArray((set && typeof set === "object" ? set.DocumentSummary : undefined) as XmlNode[] | undefined);
}
