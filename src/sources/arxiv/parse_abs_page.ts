/**
 * The arxiv.org/abs/<id> page as metadata: its Highwire `citation_*` meta tags (title, one
 * citation_author per author as "Last, First", citation_date YYYY/MM/DD, citation_pdf_url,
 * citation_arxiv_id, citation_abstract, citation_doi) and `og:url`, which carries the version, plus the
 * metadata table under the abstract (`td.comments`, `td.subjects` with its `span.primary-subject`,
 * `td.jref`, `td.doi`). Used when the API is throttled, since the page lives on a different, less
 * contended host; the table keeps categories and comment that the meta tags lack.
 */
import { attr, type DomDocument, findAllElements, findFirst, hasClass, parseHtml, textOf } from "../html/dom.ts";
import { idFromAbsUrl, normalizeArxivId } from "./ids.ts";
import type { ArxivEntry } from "./types.ts";

/** "Machine Learning (cs.LG)" → cs.LG; old archives have no subject class ("(hep-th)", "(quant-ph)"). */
const CATEGORY_CODE = /\(([a-z][a-z-]*(?:\.[A-Za-z-]+)?)\)/g;

/** undefined when the page carries no citation_title (not an abstract page). */
export function parseAbsPage(html: string): ArxivEntry | undefined {
  const doc = parseHtml(html);
  const metas = findAllElements(doc, (el) => el.name === "meta");
  const all = (key: string) =>
    metas.filter((m) => attr(m, "name") === key || attr(m, "property") === key)
      .map((m) => squash(attr(m, "content") ?? "")).filter(Boolean);
  const one = (key: string) => all(key)[0];
  const title = one("citation_title");
  const id = idFromAbsUrl(one("og:url") ?? "") ?? normalizeArxivId(one("citation_arxiv_id") ?? "");
  if (!title || !id) return undefined;
  const date = (one("citation_date") ?? "").replaceAll("/", "-");
  const { categories, primary } = subjects(doc);
  return {
    id,
    title,
    authors: all("citation_author").map(firstLast),
    summary: one("citation_abstract") ?? "",
    published: date,
    updated: (one("citation_online_date") ?? date).replaceAll("/", "-"),
    ...(primary ? { primaryCategory: primary } : {}),
    categories,
    absUrl: `https://arxiv.org/abs/${id}`,
    pdfUrl: one("citation_pdf_url"),
    doi: one("citation_doi") ?? cell(doc, "doi")?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, ""),
    journalRef: cell(doc, "jref"),
    comment: cell(doc, "comments"),
  };
}

/** Text of the metadata table cell `td.tablecell.<name>`, whitespace squashed; undefined when absent or empty. */
function cell(doc: DomDocument, name: string): string | undefined {
  const td = findFirst(doc, (el) => el.name === "td" && hasClass(el, "tablecell") && hasClass(el, name));
  return td ? squash(textOf(td)) || undefined : undefined;
}

/** Category codes of the Subjects cell, primary first (the page lists it first, in span.primary-subject). */
function subjects(doc: DomDocument): { categories: string[]; primary?: string } {
  const td = findFirst(doc, (el) => el.name === "td" && hasClass(el, "tablecell") && hasClass(el, "subjects"));
  if (!td) return { categories: [] };
  const span = findFirst([td], (el) => el.name === "span" && hasClass(el, "primary-subject"));
  const primary = span ? [...textOf(span).matchAll(CATEGORY_CODE)][0]?.[1] : undefined;
  const codes = [...textOf(td).matchAll(CATEGORY_CODE)].map((m) => m[1]);
  return { categories: [...new Set(primary ? [primary, ...codes] : codes)], primary: primary ?? codes[0] };
}

function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** "Riedl, Mark O." → "Mark O. Riedl" (names without a comma stay as they are). */
function firstLast(name: string): string {
  const comma = name.indexOf(",");
  return comma < 0 ? name : `${name.slice(comma + 1).trim()} ${name.slice(0, comma).trim()}`.trim();
}
