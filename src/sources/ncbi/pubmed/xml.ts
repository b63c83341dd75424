/**
 * The XML parsing of PubMed EFetch bodies. It declares mixed-content
 * elements (titles, abstracts, keywords, affiliations) as stop nodes: their raw inner XML is kept in
 * order and turned into readable text by {@link markupToText}, so `<i>`, `<sub>` and MathML are neither
 * lost nor reordered. Big sub-trees nobody reads (reference lists, book sections) are stop nodes too:
 * they are skipped, not parsed. CommentsCorrectionsList is parsed: it carries the retraction notices.
 */
import { markupToText } from "./markup_text.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "../eutils/xml.ts";

const ARRAY_TAGS = new Set([
  "PubmedArticle",
  "PubmedBookArticle",
  "MedlineCitation",
  "Author",
  "AuthorList",
  "AffiliationInfo",
  "Identifier",
  "AbstractText",
  "OtherAbstract",
  "PublicationType",
  "KeywordList",
  "Keyword",
  "MeshHeading",
  "QualifierName",
  "Grant",
  "ArticleId",
  "ELocationID",
  "Language",
  "VernacularTitle",
  "ArticleDate",
  "Isbn",
  "CommentsCorrections",
]);

const MIXED_CONTENT = [
  "ArticleTitle",
  "VernacularTitle",
  "AbstractText",
  "BookTitle",
  "CollectionTitle",
  "Keyword",
  "Affiliation",
  "CollectiveName",
  "CopyrightInformation",
];
const SKIPPED = ["ReferenceList", "Sections", "ChemicalList", "DataBankList"];

/** Parses an EFetch db=pubmed body (validated like every NCBI body: see xml.ts). */
export function parsePubMedXml(body: string, url: string): XmlNode {
  return parseNcbiXml(body, url, ARRAY_TAGS, [...MIXED_CONTENT, ...SKIPPED]);
}

/** Readable text of a mixed-content (stop) node; undefined when empty. */
export function mixedText(node: unknown): string | undefined {
  const t = markupToText(text(node));
  return t || undefined;
}

/** Plain text of a regular node; undefined when empty. */
export function plainText(node: unknown): string | undefined {
  const t = text(node).trim();
  return t || undefined;
}

export function attr(node: unknown, name: string): string | undefined {
  if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
  const value = (node as XmlNode)[`@_${name}`];
  return typeof value === "string" ? value : undefined;
}

/** The raw child value `name` of an element (string, object or array), or undefined. */
export function get(node: unknown, name: string): unknown {
  if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
  return (node as XmlNode)[name];
}

/** A child element as an object (elements that hold only text parse as strings). */
export function child(node: unknown, name: string): XmlNode | undefined {
  if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
  const value = (node as XmlNode)[name];
  if (Array.isArray(value)) return value[0] as XmlNode | undefined;
  return value && typeof value === "object" ? value as XmlNode : undefined;
}

/** Children named `name` (always an array). */
export function children(node: unknown, name: string): unknown[] {
  if (!node || typeof node !== "object" || Array.isArray(node)) return [];
  return asArray((node as XmlNode)[name] as unknown[]);
}
