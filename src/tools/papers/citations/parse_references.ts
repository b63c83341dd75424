/**
 * References as callers paste them → the fields verification compares. Each input item is one free-text
 * reference (Vancouver, APA and similar styles), or a BibTeX or RIS string holding any number of entries;
 * a free-text item of several lines is one reference per line.
 */
import { normalizeArxivId } from "../../../sources/arxiv/ids.ts";

export interface ParsedReference {
  /** The reference as given (one line for BibTeX/RIS: `@article{key,…}` or `TY  - JOUR …`). */
  text: string;
  doi?: string;
  pmid?: string;
  arxiv?: string;
  openalex?: string;
  title?: string;
  /** First author's surname. */
  firstAuthor?: string;
  year?: string;
  journal?: string;
  volume?: string;
  firstPage?: string;
}

export function parseReferences(items: readonly string[]): ParsedReference[] {
  return items.flatMap((item) => {
    if (/^\s*@\w+\s*\{/m.test(item)) return parseBibtex(item);
    if (/^TY {2}- /m.test(item)) return parseRis(item);
    return item.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 3).map(parseFreeText);
  });
}

/** A DOI in running text, without the punctuation that ends the sentence around it. */
export function findDoi(text: string): string | undefined {
  const m = /\b(10\.\d{4,9}\/[^\s"<>]+)/.exec(text);
  if (!m) return undefined;
  let doi = m[1].replace(/[.,;]+$/, "");
  while (doi.endsWith(")") && count(doi, "(") < count(doi, ")")) doi = doi.slice(0, -1);
  return doi.replace(/[.,;]+$/, "");
}

function count(s: string, c: string): number {
  return s.split(c).length - 1;
}

function identifiers(text: string): Pick<ParsedReference, "doi" | "pmid" | "arxiv" | "openalex"> {
  const arxivMatch = /arxiv[:\s]*(?:\.org\/(?:abs|pdf)\/)?\s*([\w.\/-]*\d(?:v\d+)?)/i.exec(text);
  const out = {
    doi: findDoi(text),
    pmid: /\bPMID:?\s*(\d{1,9})\b/i.exec(text)?.[1],
    arxiv: arxivMatch ? normalizeArxivId(arxivMatch[1]) : undefined,
    openalex: /\b(W\d{6,12})\b/.exec(text)?.[1],
  };
  return compact(out);
}

export function parseFreeText(raw: string): ParsedReference {
  const text = raw.replace(/^\s*(?:\[\d+\]|\d+[.)])\s+/, "").trim();
  const ids = identifiers(text);
  // What remains once identifiers and links are gone is the citation proper.
  const body = text.replace(/\b(?:doi:?\s*|https?:\/\/\S+)?10\.\d{4,9}\/\S+/gi, " ").replace(/https?:\/\/\S+/g, " ")
    .replace(/\b(?:PMID|PMCID|arXiv):?\s*\S+/gi, " ").replace(/\s+/g, " ").trim();
  const apa = /^(.*?)\s*\(((?:1[89]|20)\d{2})[a-z]?(?:,[^)]*)?\)\.?\s*(.*)$/.exec(body);
  let authors: string | undefined;
  let title: string | undefined;
  let journal: string | undefined;
  let after = body;
  if (apa) {
    authors = apa[1];
    const [t, rest] = splitSentence(apa[3]);
    title = t;
    journal = rest?.split(/,\s*\d|\.\s/)[0];
  } else {
    const parts = sentences(body);
    const authorFirst = parts.length > 1 && looksLikeAuthors(parts[0]);
    authors = authorFirst ? parts[0] : undefined;
    title = parts[authorFirst ? 1 : 0];
    journal = parts[authorFirst ? 2 : 1]?.split(/[;,]?\s*\b(?:1[89]|20)\d{2}\b/)[0];
    after = parts.slice(authorFirst ? 2 : 1).join(". ");
  }
  // The year of publication follows the title (a year inside the title is part of it).
  const yearIn = (t: string) => /\b((?:1[89]|20)\d{2})\b/.exec(t)?.[1];
  const year = apa?.[2] ?? yearIn(after) ?? yearIn(body);
  const vancouver = /;\s*(\d+)\s*(?:\([^)]*\))?\s*:\s*([A-Za-z]?\d+)/.exec(body);
  const apaLocator = /,\s*(\d+)\s*(?:\([^)]*\))?,\s*([A-Za-z]?\d+)/.exec(body);
  const locator = vancouver ?? apaLocator;
  return compact({
    text,
    ...ids,
    title: clean(title),
    firstAuthor: authors ? surname(authors) : undefined,
    year,
    journal: clean(journal),
    volume: locator?.[1],
    firstPage: locator?.[2],
  });
}

/** "Wakefield AJ, Murch SH" / "Wakefield, A. J., & Murch, S. H." / "A. J. Wakefield and …" → "Wakefield". */
function surname(authors: string): string | undefined {
  const first = authors.split(/,|;|\band\b|&/)[0].trim();
  const words = first.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w) && !/^\p{Lu}{1,3}\.?$/u.test(w));
  return words.length ? words[words.length === 1 ? 0 : (/^\p{Lu}\./u.test(first) ? words.length - 1 : 0)] : undefined;
}

/** Author lists: short comma-separated names with initials, or "et al". */
function looksLikeAuthors(segment: string): boolean {
  if (/et al/i.test(segment)) return true;
  const names = segment.split(/,|;|&|\band\b/).map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.split(/\s+/).length <= 4 && /\b\p{Lu}{1,3}\b|\p{Lu}\./u.test(n));
}

/** Splits at ". " (or "? "/"! ") not preceded by a lone initial. */
function sentences(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest) {
    const [head, tail] = splitSentence(rest);
    out.push(head);
    rest = tail ?? "";
  }
  return out.map((s) => s.trim()).filter(Boolean);
}

function splitSentence(text: string): [string, string | undefined] {
  const re = /([.?!])\s+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(0, m.index);
    // An initial followed by another ("A. J. Smith") or after a comma ("Bailey, R. W."), not a sentence end.
    const next = text.slice(m.index + m[0].length);
    const initial = /(?:^|\s)\p{Lu}$/u.test(before);
    if (m[1] === "." && initial && (/^\p{Lu}\./u.test(next) || /,(?:\s*\p{Lu}\.)*\s*\p{Lu}$/u.test(before))) continue;
    return [text.slice(0, m.index + (m[1] === "." ? 0 : 1)), text.slice(m.index + m[0].length)];
  }
  return [text.replace(/\.$/, ""), undefined];
}

function clean(value: string | undefined): string | undefined {
  const v = value?.replace(/\s+/g, " ").replace(/^[\s.,;:]+|[\s.,;:]+$/g, "").trim();
  return v && v.length > 1 ? v : undefined;
}

function parseBibtex(text: string): ParsedReference[] {
  const entries = text.split(/(?=@\w+\s*\{)/).filter((e) => /^@\w+\s*\{/.test(e.trim()));
  return entries.map((entry) => {
    const field = (name: string) => {
      const m = new RegExp(`\\b${name}\\s*=\\s*(?:\\{((?:[^{}]|\\{[^{}]*\\})*)\\}|"([^"]*)"|(\\d+))`, "i").exec(entry);
      return clean((m?.[1] ?? m?.[2] ?? m?.[3])?.replace(/[{}]/g, ""));
    };
    const author = field("author")?.split(/\s+and\s+/i)[0];
    return compact({
      text: entry.trim().replace(/\s+/g, " "),
      doi: field("doi") ? findDoi(field("doi")!) : undefined,
      pmid: field("pmid"),
      arxiv: field("eprint") ? normalizeArxivId(field("eprint")!) : undefined,
      title: field("title"),
      firstAuthor: author
        ? (author.includes(",") ? author.split(",")[0].trim() : author.split(/\s+/).pop())
        : undefined,
      year: field("year"),
      journal: field("journal") ?? field("booktitle"),
      volume: field("volume"),
      firstPage: field("pages")?.split(/[-–]/)[0],
    });
  });
}

function parseRis(text: string): ParsedReference[] {
  const records = text.split(/^ER {2}-.*$/m).filter((r) => /^TY {2}- /m.test(r));
  return records.map((record) => {
    const tag = (...names: string[]) => {
      for (const n of names) {
        const m = new RegExp(`^${n} {2}- (.*)$`, "m").exec(record);
        if (m?.[1].trim()) return m[1].trim();
      }
      return undefined;
    };
    const author = tag("AU", "A1");
    return compact({
      text: record.trim().replace(/\s*\n\s*/g, " | "),
      doi: tag("DO") ? findDoi(tag("DO")!) : undefined,
      title: tag("TI", "T1"),
      firstAuthor: author?.split(",")[0].trim(),
      year: /\d{4}/.exec(tag("PY", "Y1", "DA") ?? "")?.[0],
      journal: tag("T2", "JO", "JF", "JA"),
      volume: tag("VL"),
      firstPage: tag("SP"),
    });
  });
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== "")) as T;
}
