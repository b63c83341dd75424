/**
 * Full-text HTML (arXiv's LaTeXML pages, ar5iv, publisher article pages) to plain text for a model:
 * page chrome (navigation, table of contents, headers, footers, scripts, buttons) is dropped; headings
 * become `#` lines and paragraphs stay separated by blank lines; MathML becomes its TeX `alttext` in
 * `$…$` (`$$…$$` for display math); footnotes are gathered under "Notes"; the bibliography is moved to
 * the very end (LaTeXML puts it before the appendices). Built on htmlparser2's DOM, never on regexes
 * over markup, so broken or non-LaTeXML pages degrade to sensible text instead of failing.
 */
import { parseJob } from "../parse_job.ts";
import { attr, type DomElement, type DomNode, findFirst, hasClass, isElement, parseHtml, textOf } from "./dom.ts";

export interface HtmlText {
  text: string;
  /** The `<title>` (or first `<h1>`), whitespace-collapsed. */
  title?: string;
  /** True when the page is LaTeXML output (arXiv HTML, ar5iv). */
  latexml: boolean;
}

const words = (list: string) => list.trim().split(/\s+/);
const SKIP_TAGS = new Set(words(`
  script style noscript template nav button form input select textarea svg canvas iframe object embed img
  picture video audio map link meta head footer aside dialog`));
const SKIP_CLASSES = words(`
  ltx_page_navbar ltx_TOC ltx_page_footer ltx_page_logo ltx_listing_data ltx_note_type ar5iv-footer
  package-alerts sr-only`);
const SKIP_ROLES = new Set(words("navigation banner contentinfo search status dialog"));
const BLOCK_TAGS = new Set(words(`
  p div section article main blockquote figure figcaption li ul ol dl dd dt address center header caption hr
  details summary body html`));
const EQUATION_TABLE = ["ltx_equation", "ltx_eqn_table", "ltx_equationgroup"];

/**
 * @example htmlToText('<article class="ltx_document"><h2>1 Intro</h2><p>Let <math alttext="x^2"/>.</p></article>')
 *   // { text: "## 1 Intro\n\nLet $x^2$.", latexml: true, ... }
 */
export function htmlToText(html: string): HtmlText {
  const doc = parseHtml(html);
  const article = findFirst(doc, (el) => el.name === "article" && hasClass(el, "ltx_document"));
  const root = article ?? findFirst(doc, (el) => el.name === "main") ?? findFirst(doc, (el) => el.name === "body");
  const state: State = { main: new Sink(), notes: new Sink(), refs: new Sink() };
  walkAll(root ? [root] : doc.children, state.main, state, root?.name === "main" || !!article);
  state.main.flush();
  const blocks = [...state.main.blocks];
  if (state.notes.blocks.length > 0) blocks.push("## Notes", ...state.notes.blocks);
  blocks.push(...state.refs.blocks);
  const titleEl = findFirst(doc, (el) => el.name === "title") ?? findFirst(doc, (el) => el.name === "h1");
  const title = titleEl ? collapse(textOf(titleEl)) : undefined;
  return { text: blocks.join("\n\n"), title: title || undefined, latexml: !!article };
}

/** {@link htmlToText} as a parse job (a LaTeXML paper page runs to megabytes; see parse_off_thread.ts). */
export const htmlTextJob = parseJob("html-text", "html", (html: string) => htmlToText(html));

interface State {
  main: Sink;
  notes: Sink;
  refs: Sink;
}

/** Accumulates inline text into the current block; `flush` closes the block. */
class Sink {
  readonly blocks: string[] = [];
  #line = "";
  text(s: string): void {
    this.#line += s;
  }
  newline(): void {
    this.#line += "\n";
  }
  flush(): void {
    const block = tidy(this.#line);
    if (block) this.blocks.push(block);
    this.#line = "";
  }
  push(block: string): void {
    this.flush();
    const b = block.trim();
    if (b) this.blocks.push(b);
  }
}

function walkAll(nodes: DomNode[], sink: Sink, state: State, inArticle: boolean): void {
  for (const node of nodes) walk(node, sink, state, inArticle);
}

function walk(node: DomNode, sink: Sink, state: State, inArticle: boolean): void {
  if (node.type === "text") {
    sink.text((node as { data: string }).data.replace(/\s+/g, " "));
    return;
  }
  if (!isElement(node) || skipped(node, inArticle)) return;
  const name = node.name;
  const inside = inArticle || name === "article" || name === "section" || name === "main";
  if (name === "math") return sink.text(mathText(node));
  if (name === "br") return sink.newline();
  if (sink === state.main && isBibliography(node)) {
    sink.flush();
    walkAll(node.children, state.refs, state, true);
    return state.refs.flush();
  }
  if (hasClass(node, "ltx_note_outer") || hasClass(node, "ltx_role_footnotetext")) {
    walkAll(node.children, state.notes, state, true);
    return state.notes.flush();
  }
  const heading = /^h([1-6])$/.exec(name);
  if (heading) {
    const level = hasClass(node, "ltx_title_abstract") ? 2 : Number(heading[1]);
    return sink.push(`${"#".repeat(level)} ${inlineText(node, state)}`);
  }
  if (name === "table") return sink.push(tableText(node, state));
  if (name === "pre") return sink.push(textOf(node).replace(/^\n+|\s+$/g, ""));
  if (hasClass(node, "ltx_listing")) return sink.push(listingText(node));
  if (BLOCK_TAGS.has(name)) {
    sink.flush();
    if (name === "li" && !hasClass(node, "ltx_bibitem")) sink.text("- ");
    walkAll(node.children, sink, state, inside);
    return sink.flush();
  }
  walkAll(node.children, sink, state, inside);
}

function skipped(el: DomElement, inArticle: boolean): boolean {
  if (SKIP_TAGS.has(el.name)) return true;
  if (el.name === "header" && !inArticle) return true;
  if (SKIP_CLASSES.some((c) => hasClass(el, c))) return true;
  if (SKIP_ROLES.has(attr(el, "role") ?? "")) return true;
  if (attr(el, "aria-hidden") === "true" || attr(el, "hidden") !== undefined) return true;
  return /display\s*:\s*none/i.test(attr(el, "style") ?? "");
}

function isBibliography(el: DomElement): boolean {
  if (hasClass(el, "ltx_bibliography")) return true;
  if (attr(el, "role") === "doc-bibliography") return true;
  return el.name === "section" && /^(references|bibliography)$/i.test(attr(el, "id") ?? "");
}

/** MathML as TeX: LaTeXML's `alttext`, else a TeX annotation, else the rendered characters. */
function mathText(el: DomElement): string {
  const annotation = findFirst(
    el.children,
    (a) => a.name === "annotation" && /tex/i.test(attr(a, "encoding") ?? ""),
  );
  const tex = collapse(attr(el, "alttext") ?? (annotation ? textOf(annotation) : textOf(el)));
  if (!tex) return "";
  return attr(el, "display") === "block" ? ` $$${tex}$$ ` : `$${tex}$`;
}

function inlineText(el: DomElement, state: State): string {
  const sink = new Sink();
  walkAll(el.children, sink, state, true);
  sink.flush();
  return sink.blocks.join(" ").replace(/\s*\n\s*/g, " ");
}

/** One line per row; cells joined by " | " (equation tables by a space: `$$…$$ (1)`). */
function tableText(table: DomElement, state: State): string {
  const separator = EQUATION_TABLE.some((c) => hasClass(table, c)) ? " " : " | ";
  const rows: string[] = [];
  const collect = (nodes: DomNode[]) => {
    for (const node of nodes) {
      if (!isElement(node) || skipped(node, true)) continue;
      if (node.name === "tr") {
        const cells = node.children.filter((c): c is DomElement => isElement(c) && /^t[dh]$/.test(c.name))
          .map((c) => inlineText(c, state)).filter(Boolean);
        if (cells.length > 0) rows.push(cells.join(separator));
      } else if (node.name !== "table") collect(node.children);
      else rows.push(tableText(node, state));
    }
  };
  const caption = table.children.find((c): c is DomElement => isElement(c) && c.name === "caption");
  collect(table.children);
  return [caption ? inlineText(caption, state) : "", ...rows].filter(Boolean).join("\n");
}

function listingText(listing: DomElement): string {
  const lines: string[] = [];
  const collect = (nodes: DomNode[]) => {
    for (const node of nodes) {
      if (!isElement(node) || skipped(node, true)) continue;
      if (hasClass(node, "ltx_listingline")) lines.push(textOf(node).replace(/\s+$/, ""));
      else collect(node.children);
    }
  };
  collect(listing.children);
  return lines.length > 0 ? lines.join("\n") : textOf(listing).trim();
}

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Collapses runs of spaces, trims each line and drops empty lines inside a block. */
function tidy(s: string): string {
  return s.replace(/[^\S\n]+/g, " ").split("\n").map((l) => l.trim()).filter(Boolean).join("\n");
}
