/**
 * Targeted extraction from large, machine-written XML (EFetch db=gene records run to 15 MB+). Instead of
 * building a tree of the whole document, callers locate the few elements they need with `indexOf` and
 * read leaf text: one pass over the bytes that matter, no allocation for the rest. Only valid for
 * NCBI's serializer output: no comments or CDATA inside the scanned elements, `>` escaped in text.
 */
import { UpstreamError } from "../../../core/errors.ts";

/**
 * Throws an upstream parse error unless the body ends with one of the closing `roots`. The shared XML
 * parser accepts a truncated document without complaint, which would turn a cut-off answer into a
 * short but "successful" result.
 */
export function assertComplete(xml: string, roots: string[], url: string): void {
  const tail = xml.slice(-200).trimEnd();
  if (roots.some((root) => tail.endsWith(`</${root}>`))) return;
  throw new UpstreamError({
    kind: "parse",
    upstream: "ncbi-eutils",
    url,
    message: `NCBI sent incomplete XML (no closing </${roots[0]}>) for ${url}`,
  });
}

/** Offsets of one element: `start` at its `<`, `end` just past its closing `>`. */
export interface Span {
  start: number;
  contentStart: number;
  contentEnd: number;
  end: number;
}

/** The first `<name …>` at or after `from` that starts before `to`, with nested same-name elements skipped. */
export function findElement(xml: string, name: string, from = 0, to = xml.length): Span | undefined {
  const start = findOpen(xml, name, from, to);
  if (start < 0) return undefined;
  const openEnd = xml.indexOf(">", start);
  if (openEnd < 0) return undefined;
  if (xml[openEnd - 1] === "/") return { start, contentStart: openEnd + 1, contentEnd: openEnd + 1, end: openEnd + 1 };
  const close = `</${name}>`;
  let depth = 1;
  let pos = openEnd + 1;
  while (depth > 0) {
    const nextClose = xml.indexOf(close, pos);
    if (nextClose < 0) return undefined;
    const nextOpen = findOpen(xml, name, pos, nextClose);
    if (nextOpen >= 0) {
      const end = xml.indexOf(">", nextOpen);
      if (xml[end - 1] !== "/") depth++;
      pos = end + 1;
    } else {
      depth--;
      pos = nextClose + close.length;
      if (depth === 0) return { start, contentStart: openEnd + 1, contentEnd: nextClose, end: pos };
    }
  }
  return undefined;
}

/** Every `<name>` element directly following one another inside [from, to) (siblings, nesting skipped). */
export function findElements(xml: string, name: string, from: number, to: number): Span[] {
  const out: Span[] = [];
  for (
    let span = findElement(xml, name, from, to);
    span && span.end <= to;
    span = findElement(xml, name, span.end, to)
  ) {
    out.push(span);
  }
  return out;
}

/** Decoded text of the first leaf `<name>…</name>` in [from, to), or "" when there is none. */
export function leafText(xml: string, name: string, from = 0, to = xml.length): string {
  const span = findElement(xml, name, from, to);
  return span ? decodeEntities(xml.slice(span.contentStart, span.contentEnd).trim()) : "";
}

/** The value of `attr` on the opening tag of `span` (e.g. `value` of `<Na-strand value="minus"/>`). */
export function attribute(xml: string, span: Span, attr: string): string {
  const tag = xml.slice(span.start, span.contentStart);
  const match = tag.match(new RegExp(`\\s${attr}="([^"]*)"`));
  return match ? decodeEntities(match[1]) : "";
}

/**
 * `indexOf` that never looks past `to`: a plain `indexOf` for an element that is absent from a small
 * range would scan the rest of a 26 MB document, and doing that per element is quadratic.
 * (V8 slices without copying, so this costs no more than the bounded scan itself.)
 */
export function indexIn(xml: string, needle: string, from: number, to: number): number {
  if (from >= to) return -1;
  const at = xml.slice(from, Math.min(to + needle.length, xml.length)).indexOf(needle);
  return at < 0 || from + at >= to ? -1 : from + at;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, entity: string) => {
    if (entity[0] !== "#") return NAMED[entity] ?? whole;
    const code = entity[1] === "x" ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Position of `<name` followed by `>`, `/` or whitespace (so `<Gene` never matches `<Gene-ref`). */
function findOpen(xml: string, name: string, from: number, to: number): number {
  const needle = `<${name}`;
  for (let pos = indexIn(xml, needle, from, to); pos >= 0; pos = indexIn(xml, needle, pos + 1, to)) {
    const next = xml.charCodeAt(pos + needle.length);
    if (next === 62 /* > */ || next === 47 /* / */ || next === 32 || next === 9 || next === 10 || next === 13) {
      return pos;
    }
  }
  return -1;
}
