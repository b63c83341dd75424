/**
 * The arxiv.org/abs/<id> page as metadata: its Highwire `citation_*` meta tags (title, one
 * citation_author per author as "Last, First", citation_date YYYY/MM/DD, citation_pdf_url,
 * citation_arxiv_id, citation_abstract) and `og:url`, which carries the version. Used when the API is
 * throttled, since the page lives on a different, less contended host.
 */
import { attr, findAllElements, parseHtml } from "../html/dom.ts";
import { idFromAbsUrl, normalizeArxivId } from "./ids.ts";
import type { ArxivEntry } from "./types.ts";

/** undefined when the page carries no citation_title (not an abstract page). */
export function parseAbsPage(html: string): ArxivEntry | undefined {
  const metas = findAllElements(parseHtml(html), (el) => el.name === "meta");
  const all = (key: string) =>
    metas.filter((m) => attr(m, "name") === key || attr(m, "property") === key)
      .map((m) => (attr(m, "content") ?? "").replace(/\s+/g, " ").trim()).filter(Boolean);
  const one = (key: string) => all(key)[0];
  const title = one("citation_title");
  const id = idFromAbsUrl(one("og:url") ?? "") ?? normalizeArxivId(one("citation_arxiv_id") ?? "");
  if (!title || !id) return undefined;
  const date = (one("citation_date") ?? "").replaceAll("/", "-");
  return {
    id,
    title,
    authors: all("citation_author").map(firstLast),
    summary: one("citation_abstract") ?? "",
    published: date,
    updated: (one("citation_online_date") ?? date).replaceAll("/", "-"),
    categories: [],
    absUrl: `https://arxiv.org/abs/${id}`,
    pdfUrl: one("citation_pdf_url"),
  };
}

/** "Riedl, Mark O." → "Mark O. Riedl" (names without a comma stay as they are). */
function firstLast(name: string): string {
  const comma = name.indexOf(",");
  return comma < 0 ? name : `${name.slice(comma + 1).trim()} ${name.slice(0, comma).trim()}`.trim();
}
