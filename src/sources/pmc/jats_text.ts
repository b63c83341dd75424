/**
 * JATS elements → readable text. Inline markup (`<italic>`, `<xref>`, `<sup>`) keeps its text; math
 * becomes `$TeX$` (from `<tex-math>`, else MathML `alttext`); names read "Given Surname"; structured
 * citations get separators their markup leaves out. Block content (sections, paragraphs, lists, figures,
 * tables, formulas) becomes Markdown-like blocks: `#` headings, `- ` list items, `|`-separated table rows.
 * A supplementary file or media item (`<supplementary-material>`, `<media>`: source data, videos,
 * "Additional file 1") is one line, label, caption and file names, wherever it sits: in a paragraph, a
 * figure or table caption, a section.
 */
import { DomUtils } from "npm:htmlparser2@12.0.0";
import { attr, type DomElement, type DomNode, isElement, textOf } from "../html/dom.ts";

/** Elements whose content is not reading text (metadata, alternatives already rendered another way). */
const SKIP = new Set(["label", "object-id", "alt-text", "sec-meta", "graphic", "inline-graphic"]);
/** Supplementary files and media: one line each ({@link fileLine}). */
const FILES = new Set(["supplementary-material", "inline-supplementary-material", "media"]);
/** Floats and blocks that may sit inside a paragraph but read as their own block. */
const FLOATS = new Set([
  "fig",
  "table-wrap",
  "disp-formula",
  "list",
  "disp-quote",
  "boxed-text",
  "def-list",
  ...FILES,
]);

export function children(el: DomElement): DomNode[] {
  return DomUtils.getChildren(el);
}

export function childElements(el: DomElement, name?: string): DomElement[] {
  return children(el).filter((n): n is DomElement => isElement(n) && (!name || n.name === name));
}

export function firstChild(el: DomElement, name: string): DomElement | undefined {
  return childElements(el, name)[0];
}

function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** MathML or a JATS formula as `$TeX$`; the alttext or token text when no TeX is given. */
function math(el: DomElement): string {
  const tex = DomUtils.findOne((e) => e.name === "tex-math", [el], true);
  if (tex) return `$${squash(textOf(tex)).replace(/^\$+|\$+$/g, "")}$`;
  const mml = el.name.endsWith("math") ? el : DomUtils.findOne((e) => e.name.endsWith(":math") || e.name === "math", [
    el,
  ], true);
  const alt = mml && attr(mml, "alttext");
  if (alt?.trim()) return `$${squash(alt)}$`;
  return squash(textOf(el));
}

/** "Given Surname" from `<name>` (or `<string-name>` text). */
export function personName(el: DomElement): string {
  if (el.name === "string-name" || el.name === "collab") return squash(textOf(el));
  const surname = firstChild(el, "surname");
  const given = firstChild(el, "given-names");
  return squash([given ? textOf(given) : "", surname ? textOf(surname) : ""].join(" "));
}

/**
 * Inline text of an element. `floats` collects block elements met inside (a figure in a paragraph) so the
 * caller can emit them after the paragraph instead of inside it.
 */
export function inline(node: DomNode, floats?: DomElement[]): string {
  if (!isElement(node)) return node.type === "text" ? (node as unknown as { data: string }).data : "";
  const name = node.name;
  if (SKIP.has(name)) return "";
  if (floats && FLOATS.has(name)) {
    floats.push(node);
    return " ";
  }
  // A file met where no block can follow (a table cell, a list item) stays in the text, bracketed.
  if (FILES.has(name)) return ` [${fileLine(node).replace(/^- /, "")}] `;
  if (name === "inline-formula" || name === "disp-formula" || name === "mml:math" || name === "math") {
    return ` ${math(node)} `;
  }
  if (name === "tex-math") return ` $${squash(textOf(node))}$ `;
  if (name === "name" || name === "string-name") return personName(node);
  if (name === "person-group") return childElements(node).map((e) => inline(e)).filter(Boolean).join(", ");
  if (name === "break") return " ";
  // A call to a table footnote reads "^a", so the cell still points at the note below the table.
  if (name === "xref" && attr(node, "ref-type") === "table-fn") return `^${squash(textOf(node))}`;
  if (name === "pub-id") {
    const type = attr(node, "pub-id-type");
    return ` ${type === "pmid" ? "PMID:" : type === "doi" ? "doi:" : ""}${squash(textOf(node))} `;
  }
  if (name === "element-citation") {
    return childElements(node).map((e) => squash(inline(e))).filter(Boolean).join(". ");
  }
  return children(node).map((n) => inline(n, floats)).join("");
}

export function inlineText(el: DomElement, floats?: DomElement[]): string {
  // Math and ids are padded with spaces; punctuation after them closes up again.
  return squash(inline(el, floats)).replace(/ ([.,;:])(?=\s|$)/g, "$1");
}

/**
 * `Table 1. Caption text` from a float's label and caption, then one line per supplementary file or
 * media item anywhere inside the float (eLife hangs "Figure 1—source data 1" in the figure's caption).
 */
function captionLines(el: DomElement, kind: string): string[] {
  const label = firstChild(el, "label");
  const caption = firstChild(el, "caption");
  const head = label ? squash(textOf(label)).replace(/[.:]$/, "") : kind;
  const swallowed: DomElement[] = []; // files are listed below, not inside the caption
  const text = caption ? childElements(caption).map((c) => inlineText(c, swallowed)).filter(Boolean).join(" ") : "";
  return [`${head}.${text ? ` ${text}` : ""}`, ...filesIn(el).map(fileLine)];
}

/** The supplementary files and media items inside `el`, outermost only, in document order. */
function filesIn(el: DomElement): DomElement[] {
  const found: DomElement[] = [];
  const walk = (node: DomElement) => {
    for (const child of childElements(node)) {
      if (FILES.has(child.name)) found.push(child);
      else walk(child);
    }
  };
  walk(el);
  return found;
}

/**
 * One line for a supplementary file or media item: `- <label> <caption> (file: <name>)`. The label and
 * caption may sit on the `<supplementary-material>` or on its `<media>` (BMC's "Additional file 1: …");
 * eLife's "DOI: …" caption paragraphs are left out. A video says so.
 * @example "- Figure 1—source data 1. Absolute values for JA … (file: elife04490s001.xlsx)"
 */
export function fileLine(el: DomElement): string {
  const media = el.name === "media" ? [el] : DomUtils.findAll((e) => e.name === "media", [el]);
  const labelEl = firstChild(el, "label") ?? media.map((m) => firstChild(m, "label")).find(Boolean);
  const captionEl = firstChild(el, "caption") ?? media.map((m) => firstChild(m, "caption")).find(Boolean);
  const label = labelEl ? squash(textOf(labelEl)) : "";
  const caption = captionEl
    ? childElements(captionEl).map((c) => inlineText(c, [])).filter((t) => t && !/^DOI:/i.test(t)).join(" ")
    : "";
  const own = el.name === "media" ? "" : squash(
    childElements(el).filter((c) => !["label", "caption", "media", "object-id"].includes(c.name))
      .map((c) => inlineText(c, [])).join(" "),
  );
  const files = [el, ...media].map((m) => attr(m, "xlink:href")?.trim()).filter((f): f is string => Boolean(f));
  const unique = [...new Set(files)];
  const video = media.some((m) => attr(m, "mimetype") === "video");
  const kind = video ? "video" : unique.length > 1 ? "files" : "file";
  const where = unique.length ? ` (${kind}: ${unique.join(", ")})` : video ? " (video)" : "";
  const text = [caption, own].filter(Boolean).join(" ");
  const name = label || (text ? "" : el.name === "media" ? "Media" : "Supplementary material");
  const line = `- ${[name, text].filter(Boolean).join(" ")}${where}`.replace(/\.\. /g, ". ");
  // A file cited inside this one's caption (eLife: a video's source data) gets its own line.
  return [line, ...(captionEl ? filesIn(captionEl).map(fileLine) : [])].join("\n");
}

function tableRows(el: DomElement): string[] {
  return DomUtils.findAll((e) => e.name === "tr", [el]).map((tr) =>
    childElements(tr).filter((c) => c.name === "td" || c.name === "th").map((c) => inlineText(c)).join(" | ")
  ).filter((row) => row.replace(/[|\s]/g, ""));
}

/**
 * Block content of `el` as text blocks (joined by blank lines later). `depth` is the heading level of a
 * `<sec>` title met here: 2 for top-level body sections (`##`).
 */
export function blocks(el: DomElement, depth: number, out: string[]): string[] {
  return blockNodes(children(el), depth, out);
}

/** {@link blocks} over a list of sibling nodes. */
export function blockNodes(nodes: DomNode[], depth: number, out: string[]): string[] {
  for (const node of nodes) {
    if (!isElement(node)) {
      const text = node.type === "text" ? squash((node as unknown as { data: string }).data) : "";
      if (text) out.push(text);
      continue;
    }
    block(node, depth, out);
  }
  return out;
}

function block(el: DomElement, depth: number, out: string[]): void {
  switch (el.name) {
    case "sec":
    case "app":
    case "ack":
    case "boxed-text": {
      const title = firstChild(el, "title");
      const label = firstChild(el, "label");
      const heading = [label ? squash(textOf(label)) : "", title ? inlineText(title) : ""].filter(Boolean).join(" ");
      const fallback = el.name === "ack" ? "Acknowledgments" : "";
      if (heading || fallback) out.push(`${"#".repeat(Math.min(depth, 6))} ${heading || fallback}`);
      blocks(el, depth + 1, out);
      return;
    }
    case "title":
    case "label":
      return; // read by the enclosing section
    case "p": {
      const floats: DomElement[] = [];
      const text = inlineText(el, floats);
      if (text) out.push(text);
      for (const f of floats) block(f, depth, out);
      return;
    }
    case "list":
      out.push(listLines(el, "").join("\n"));
      return;
    case "def-list":
      out.push(
        childElements(el, "def-item").map((item) =>
          `- ${childElements(item).map((c) => inlineText(c)).filter(Boolean).join(": ")}`
        ).join("\n"),
      );
      return;
    case "disp-quote":
      out.push(blocks(el, depth, []).map((b) => `> ${b}`).join("\n"));
      return;
    case "disp-formula":
      out.push(math(el).replace(/^\$(.*)\$$/s, "$$$$$1$$$$"));
      return;
    case "fig":
      out.push(captionLines(el, "Figure").join("\n"));
      return;
    case "table-wrap": {
      const foot = firstChild(el, "table-wrap-foot");
      const [caption, ...files] = captionLines(el, "Table");
      out.push([caption, ...tableRows(el), ...(foot ? footLines(foot) : []), ...files].join("\n"));
      return;
    }
    case "supplementary-material":
    case "inline-supplementary-material":
    case "media":
      out.push(fileLine(el));
      return;
    default:
      if (SKIP.has(el.name)) return;
      blocks(el, depth, out);
  }
}

/** A table's footer: one line per footnote (its label first: "a) …") and per paragraph, in order. */
function footLines(el: DomElement): string[] {
  const lines: string[] = [];
  for (const node of children(el)) {
    if (!isElement(node)) {
      const text = node.type === "text" ? squash((node as unknown as { data: string }).data) : "";
      if (text) lines.push(text);
    } else if (node.name === "fn-group") lines.push(...footLines(node));
    else if (node.name === "fn") lines.push(footnote(node));
    else if (node.name !== "title") lines.push(inlineText(node));
  }
  return lines.filter(Boolean);
}

/** `<fn><label>a</label><p>…</p></fn>` or `<fn><p><sup>a</sup>…</p></fn>` → "a) …". */
function footnote(fn: DomElement): string {
  const label = firstChild(fn, "label");
  let text = childElements(fn).filter((c) => c.name !== "label").map((c) => inlineText(c)).filter(Boolean)
    .join(" ");
  let mark = label ? squash(textOf(label)) : "";
  if (!mark) {
    const first = childElements(fn).find((c) => c.name === "p");
    const lead = first && children(first).find((n) => isElement(n) || squash(textOf(n)));
    const leadText = lead && isElement(lead) && lead.name === "sup" ? squash(textOf(lead)) : "";
    if (leadText && leadText.length <= 3 && text.startsWith(leadText)) {
      mark = leadText;
      text = text.slice(leadText.length).trim();
    }
  }
  return mark ? `${mark}) ${text}` : text;
}

function listLines(list: DomElement, indent: string): string[] {
  const lines: string[] = [];
  for (const item of childElements(list, "list-item")) {
    const nested = childElements(item, "list");
    const own = childElements(item).filter((c) => c.name !== "list").map((c) => inlineText(c)).filter(Boolean);
    lines.push(`${indent}- ${own.join(" ")}`);
    for (const sub of nested) lines.push(...listLines(sub, `${indent}  `));
  }
  return lines;
}
