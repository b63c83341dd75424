/**
 * EFetch db=pmc bodies (`<pmc-articleset><article>` in JATS) → one {@link PmcArticle}: metadata from
 * `<front>`, the abstract, the body as `##`-headed sections, and the references. An article without a
 * `<body>` is what PMC sends when the publisher does not allow the full text to be downloaded: `hasBody`
 * is false and the caller falls back to the abstract. Sub-articles (eLife's decision letters and author
 * responses, reviews, editor's evaluations) are sections of their own after the references.
 */
import { DomUtils, parseDocument } from "npm:htmlparser2@12.0.0";
import { UpstreamError } from "../../core/errors.ts";
import { attr, type DomElement, isElement, textOf } from "../html/dom.ts";
import { parseJob } from "../parse_job.ts";
import { xmlProblem } from "../xml_check.ts";
import { blockNodes, blocks, childElements, firstChild, inlineText, personName } from "./jats_text.ts";
import type { PmcAbstract, PmcArticle, PmcSection } from "./types.ts";

/** Preferred publication dates, best first (JATS 1.0 `pub-type`, JATS 1.1+ `date-type`/format). */
const DATE_KINDS = ["epub", "ppub", "pub", "epub-ppub", "collection", "pmc-release"];

/**
 * @throws UpstreamError (kind "parse") when the body is not XML or holds no article.
 * @example parsePmcArticles(xml, url)[0].sections[0].heading // "Introduction"
 */
export function parsePmcArticles(xml: string, url: string): PmcArticle[] {
  const problem = xml.trimStart().startsWith("<") ? xmlProblem(xml) : "not XML";
  if (problem) throw parseError(url, `PMC sent a body that is not valid XML (${problem})`);
  const doc = parseDocument(xml, { xmlMode: true, decodeEntities: true });
  const error = DomUtils.findOne((e) => e.name === "error" || e.name === "ERROR", doc.children, true);
  const articles = DomUtils.findAll((e) => e.name === "article", doc.children);
  if (articles.length === 0 && error) throw parseError(url, `PMC answered with an error: ${textOf(error).trim()}`);
  const root = doc.children.find(isElement);
  if (!root || !ARTICLE_ROOTS.has(root.name)) {
    throw parseError(url, `PMC answered ${describeRoot(root)} instead of a PMC article set (an outage page?)`);
  }
  return articles.map((a) => article(a, xml));
}

/** {@link parsePmcArticles} as parse jobs, for PMC's EFetch and Europe PMC's fullTextXML (see parse_off_thread.ts). */
export const pmcArticlesJob = parseJob("pmc-articles", "ncbi-eutils", parsePmcArticles);
export const europePmcArticlesJob = parseJob("europepmc-articles", "europepmc", parsePmcArticles);

/** What EFetch db=pmc wraps articles in; anything else (an HTML 503 page, another service's XML) is no answer. */
const ARTICLE_ROOTS = new Set(["pmc-articleset", "article"]);

function describeRoot(root: DomElement | undefined): string {
  if (!root) return "a body without any element";
  if (root.name.toLowerCase() !== "html") return `an XML document <${root.name}>`;
  const title = DomUtils.findOne((e) => e.name.toLowerCase() === "title", [root], true);
  const text = title ? textOf(title).replace(/\s+/g, " ").trim().slice(0, 120) : "";
  return `an HTML page${text ? ` ("${text}")` : ""}`;
}

function article(el: DomElement, raw: string): PmcArticle {
  const front = firstChild(el, "front");
  const meta = front && firstChild(front, "article-meta");
  const journalMeta = front && firstChild(front, "journal-meta");
  const ids = Object.fromEntries(
    (meta ? childElements(meta, "article-id") : []).map((e) => [attr(e, "pub-id-type") ?? "", textOf(e).trim()]),
  );
  const body = firstChild(el, "body");
  const back = firstChild(el, "back");
  const titleEl = meta && DomUtils.findOne((e) => e.name === "article-title", [meta], true);
  const journal = journalMeta && DomUtils.findOne((e) => e.name === "journal-title", [journalMeta], true);
  const abstracts = meta ? [...childElements(meta, "abstract"), ...childElements(meta, "trans-abstract")] : [];
  const abstract = abstracts.find((a) => a.name === "abstract" && !attr(a, "abstract-type")) ?? abstracts[0];
  const floats = firstChild(el, "floats-group") ?? firstChild(el, "floats-wrap");
  const pmc = ids.pmc ?? ids.pmcid ?? ids["pmc-uid"];
  return {
    ...(pmc ? { pmcid: pmc.toUpperCase().startsWith("PMC") ? pmc.toUpperCase() : `PMC${pmc}` } : {}),
    ...(ids.pmid ? { pmid: ids.pmid } : {}),
    ...(ids.doi ? { doi: ids.doi } : {}),
    title: titleEl ? inlineText(titleEl) || null : null,
    authors: meta ? authors(meta) : [],
    date: meta ? pubDate(meta) : null,
    ...(journal ? { journal: textOf(journal).trim() } : {}),
    ...(attr(el, "article-type") ? { articleType: attr(el, "article-type") } : {}),
    openAccess: /<\?properties[^?]*\bopen_access\b/.test(raw),
    ...(abstract ? { abstract: blocks(abstract, 3, []).join("\n\n") } : {}),
    otherAbstracts: abstracts.filter((a) => a !== abstract).map(otherAbstract).filter((a) => a.text),
    hasBody: body !== undefined && blocks(body, 2, []).length > 0,
    sections: [...(body ? sections(body) : []), ...floatsSection(floats)],
    backMatter: back
      ? blockNodes(back.children.filter((n) => (n as DomElement).name !== "ref-list"), 2, []).join("\n\n")
      : "",
    references: back ? references(back) : [],
    subArticles: subArticles(el),
  };
}

/** Readable names of JATS `article-type`s a sub-article carries, for one without a title. */
const SUB_ARTICLE_NAMES: Record<string, string> = {
  "decision-letter": "Decision letter",
  "article-commentary": "Decision letter",
  reply: "Author response",
  "author-comment": "Author response",
  "editor-report": "eLife assessment",
  "referee-report": "Reviewer report",
  "review-article": "Review",
};

/**
 * Every `<sub-article>` (and JATS 1.0 `<response>`) of an article, nested ones after their parent, each a
 * section: its title, who wrote it, then its body with `###` subsections.
 */
function subArticles(el: DomElement): PmcSection[] {
  return childElements(el).filter((c) => c.name === "sub-article" || c.name === "response").flatMap((sub) => {
    const stub = firstChild(sub, "front-stub") ?? firstChild(sub, "front");
    const titleEl = stub && DomUtils.findOne((e) => e.name === "article-title", [stub], true);
    const type = attr(sub, "article-type") ?? sub.name;
    const heading = (titleEl && inlineText(titleEl)) || (SUB_ARTICLE_NAMES[type] ?? `Sub-article (${type})`);
    const names = stub ? authorsOf(stub, true) : [];
    const body = firstChild(sub, "body");
    const back = firstChild(sub, "back");
    const text = [
      ...(names.length ? [`By ${names.join(", ")}.`] : []),
      ...(body ? blocks(body, 3, []) : []),
      ...(back ? blockNodes(back.children.filter((n) => (n as DomElement).name !== "ref-list"), 3, []) : []),
    ].join("\n\n");
    return [{ heading, text }, ...subArticles(sub)];
  });
}

const ABSTRACT_NAMES: Record<string, string> = {
  summary: "Author Summary",
  graphical: "Graphical abstract",
  teaser: "Teaser",
  editor: "Editor's summary",
  "executive-summary": "Executive summary",
  "author-highlights": "Highlights",
};

function otherAbstract(el: DomElement): PmcAbstract {
  const lang = attr(el, "xml:lang");
  const type = el.name === "trans-abstract" ? "trans-abstract" : attr(el, "abstract-type") ?? "abstract";
  const title = firstChild(el, "title");
  const named = el.name === "trans-abstract"
    ? `Translated abstract${lang ? ` (${lang})` : ""}`
    : ABSTRACT_NAMES[type] ?? `${type[0].toUpperCase()}${type.slice(1)} abstract`;
  return { type, heading: (title && inlineText(title)) || named, text: blocks(el, 3, []).join("\n\n") };
}

/** PMC often moves every figure and table out of the body into `<floats-group>` after `<back>`. */
function floatsSection(floats: DomElement | undefined): PmcSection[] {
  const text = floats ? blocks(floats, 3, []).join("\n\n") : "";
  return text ? [{ heading: "Figures and tables", text }] : [];
}

function authors(meta: DomElement): string[] {
  return authorsOf(meta, false);
}

/** Contributors' names: the authors, or (`anyRole`) everyone, with a role other than author after the name. */
function authorsOf(meta: DomElement, anyRole: boolean): string[] {
  const wanted = (e: DomElement) => e.name === "contrib" && (anyRole || attr(e, "contrib-type") === "author");
  return DomUtils.findAll(wanted, [meta]).map((c) => {
    const name = DomUtils.findOne((e) => ["name", "string-name", "collab"].includes(e.name), [c], true);
    if (!name) return "";
    const type = attr(c, "contrib-type");
    const role = firstChild(c, "role");
    const what = role ? inlineText(role) : type && type !== "author" ? type : "";
    return anyRole && what ? `${personName(name)} (${what})` : personName(name);
  }).filter(Boolean);
}

function pubDate(meta: DomElement): string | null {
  const dates = childElements(meta, "pub-date");
  const kind = (d: DomElement) => attr(d, "pub-type") ?? attr(d, "date-type") ?? "";
  const ranked = [...dates].sort((a, b) => rank(kind(a)) - rank(kind(b)));
  for (const d of ranked) {
    const part = (name: string) => (firstChild(d, name) ? textOf(firstChild(d, name)!).trim() : "");
    const year = part("year");
    if (!/^\d{4}$/.test(year)) continue;
    const month = part("month").padStart(2, "0");
    const day = part("day").padStart(2, "0");
    if (!/^(0[1-9]|1[0-2])$/.test(month)) return year;
    return /^(0[1-9]|[12]\d|3[01])$/.test(day) ? `${year}-${month}-${day}` : `${year}-${month}`;
  }
  return null;
}

function rank(kind: string): number {
  const at = DATE_KINDS.indexOf(kind);
  return at < 0 ? DATE_KINDS.length : at;
}

/** Top-level body sections; text before the first `<sec>` becomes an untitled leading section. */
function sections(body: DomElement): PmcSection[] {
  const out: PmcSection[] = [];
  const loose: string[] = [];
  for (const node of body.children) {
    if ((node as DomElement).name === "sec") {
      const [head = "", ...rest] = blockNodes([node], 2, []);
      out.push({ heading: head.replace(/^#+\s*/, ""), text: rest.join("\n\n") });
    } else {
      blockNodes([node], 2, loose);
    }
  }
  if (loose.length) out.unshift({ heading: "", text: loose.join("\n\n") });
  return out;
}

function references(back: DomElement): string[] {
  return DomUtils.findAll((e) => e.name === "ref", [back]).map((ref) => {
    const cites = childElements(ref).filter((c) => c.name.endsWith("citation"));
    return (cites.length ? cites : [ref]).map((c) => inlineText(c)).join(" ");
  }).filter(Boolean);
}

export function parseError(url: string, message: string): UpstreamError {
  return new UpstreamError({ kind: "parse", upstream: "ncbi-eutils", url, message: `${message} for ${url}` });
}
