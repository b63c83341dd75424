/**
 * One XML parser configuration for every NCBI body, validated first (see xml_check.ts). Text is never
 * coerced to numbers (PMIDs, "08", "4002.e26" stay strings), attributes are kept under `@_`, and the given
 * element names always parse as arrays so a single child never changes the shape.
 */
import { XMLParser } from "npm:fast-xml-parser@5.12.1";
import { xmlProblem } from "../../xml_check.ts";
import { UpstreamError } from "../../../core/errors.ts";

export type XmlNode = Record<string, unknown>;

/**
 * @param stopNodes element names whose inner XML is kept raw (mixed content such as titles with `<i>`,
 *   or big sub-trees nobody reads, which are then skipped rather than parsed).
 */
function parseXml(
  text: string,
  arrayTags: Iterable<string> = [],
  preserveOrder = false,
  stopNodes: Iterable<string> = [],
): XmlNode {
  const arrays = new Set(arrayTags);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    htmlEntities: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    preserveOrder,
    stopNodes: [...stopNodes].map((name) => `*.${name}`),
    isArray: (name) => arrays.has(name),
  });
  return parser.parse(text) as XmlNode;
}

/** Parses an NCBI body, turning unparseable text into an UpstreamError of kind "parse". */
export function parseNcbiXml(
  text: string,
  url: string,
  arrayTags: Iterable<string> = [],
  stopNodes: Iterable<string> = [],
): XmlNode {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("<")) {
    throw new UpstreamError({
      kind: "parse",
      upstream: "ncbi-eutils",
      url,
      message: `NCBI sent a body that is not XML (${JSON.stringify(trimmed.slice(0, 80))}) for ${url}`,
    });
  }
  const problem = xmlProblem(text);
  if (problem) {
    throw new UpstreamError({
      kind: "parse",
      upstream: "ncbi-eutils",
      url,
      message: `NCBI sent malformed or truncated XML (${problem}) for ${url}`,
    });
  }
  try {
    return parseXml(text, arrayTags, false, stopNodes);
  } catch (cause) {
    throw new UpstreamError({
      kind: "parse",
      upstream: "ncbi-eutils",
      url,
      message: `NCBI sent malformed XML for ${url}`,
      cause,
    });
  }
}

/** Text content of a parsed node: strings as is, `#text` of elements with attributes, else "". */
export function text(node: unknown): string {
  if (node === undefined || node === null) return "";
  if (typeof node === "string") return node;
  if (typeof node === "number" || typeof node === "boolean") return String(node);
  if (Array.isArray(node)) return node.map(text).join(" ");
  if (typeof node === "object") {
    const t = (node as XmlNode)["#text"];
    return t === undefined ? "" : text(t);
  }
  return "";
}

export function asArray<T>(value: T | T[] | undefined | null): T[] {
  if (value === undefined || value === null || value === "") return [];
  return Array.isArray(value) ? value : [value];
}
