/** Thin typed helpers over htmlparser2's DOM (domhandler nodes), shared by the HTML readers. */
import { DomUtils, ElementType, parseDocument } from "npm:htmlparser2@12.0.0";

export type DomNode = Parameters<typeof DomUtils.getChildren>[0];
export type DomElement = Parameters<typeof DomUtils.getAttributeValue>[0];
export type DomDocument = ReturnType<typeof parseDocument>;

/** Forgiving HTML parse (unclosed tags, stray `</br>`, entities): htmlparser2 never throws on bad markup. */
export function parseHtml(html: string): DomDocument {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

export function isElement(node: DomNode): node is DomElement {
  return ElementType.isTag(node);
}

export function attr(el: DomElement, name: string): string | undefined {
  return DomUtils.getAttributeValue(el, name);
}

export function classes(el: DomElement): string[] {
  return (attr(el, "class") ?? "").split(/\s+/).filter(Boolean);
}

export function hasClass(el: DomElement, name: string): boolean {
  return classes(el).includes(name);
}

export function findFirst(root: DomNode[] | DomDocument, test: (el: DomElement) => boolean): DomElement | undefined {
  return DomUtils.findOne(test, Array.isArray(root) ? root : root.children, true) ?? undefined;
}

export function findAllElements(root: DomNode[] | DomDocument, test: (el: DomElement) => boolean): DomElement[] {
  return DomUtils.findAll(test, Array.isArray(root) ? root : root.children);
}

export function textOf(node: DomNode | DomNode[]): string {
  return DomUtils.textContent(node);
}
