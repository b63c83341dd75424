/**
 * BibTeX entry from a CSL item, typed by the table in ./from/crossref.ts: article-journal → @article,
 * paper-conference → @inproceedings (booktitle), book → @book, chapter → @incollection (booktitle), a
 * preprint → @misc, dataset → @dataset, report → @techreport, thesis → @phdthesis. The key is the item's
 * stable id. Text fields are escaped for LaTeX; `doi` and `url` are verbatim fields, so they are written as
 * they are (only a brace or backslash, which would end or break the field, is percent-encoded).
 */
import type { CslDate, CslItem, CslName } from "./csl.ts";

const SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "{": "\\{",
  "}": "\\}",
  "&": "\\&",
  "%": "\\%",
  "$": "\\$",
  "#": "\\#",
  "_": "\\_",
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const ENTRY: Record<CslItem["type"], string> = {
  "article-journal": "article",
  "paper-conference": "inproceedings",
  "book": "book",
  "chapter": "incollection",
  "entry-encyclopedia": "incollection",
  "article": "misc",
  "post-weblog": "online",
  "dataset": "dataset",
  "report": "techreport",
  "thesis": "phdthesis",
  "standard": "misc",
  "review": "article",
};

export function bibtexEntryType(item: Pick<CslItem, "type" | "genre">): string {
  if (item.type === "thesis" && item.genre && !/ph\.?\s?d|doctor/i.test(item.genre)) return "mastersthesis";
  return ENTRY[item.type];
}

export function formatBibtex(item: CslItem): string {
  const type = bibtexEntryType(item);
  const inBook = type === "inproceedings" || type === "incollection";
  const arxiv = item.custom?.arxiv;
  const date = item.issued;
  const fields: [string, string | undefined][] = [
    ["author", names(item.author)],
    ["editor", names(item.editor)],
    // Double braces keep the title's capitalisation (gene names, acronyms) in every bibliography style.
    ["title", item.title ? `{{${escape(plain(item.title))}}}` : undefined],
    ["journal", type === "article" ? braced(item["container-title"]) : undefined],
    ["booktitle", inBook ? braced(item["container-title"]) : undefined],
    ["eventtitle", braced(item["event-title"])],
    ["venue", braced(item["event-place"])],
    ["howpublished", type === "misc" || type === "dataset" ? braced(item["container-title"]) : undefined],
    [
      type === "techreport" ? "institution" : type.endsWith("thesis") ? "school" : "publisher",
      listBraced(item.publisher),
    ],
    ["address", listBraced(item["publisher-place"])],
    ["type", type.endsWith("thesis") ? braced(item.genre) : undefined],
    ["edition", braced(item.edition)],
    ["year", braced(year(date))],
    ["month", month(date)],
    ["volume", braced(item.volume)],
    ["number", braced(item.issue ?? (type === "techreport" ? item.number : undefined))],
    // biblatex's field for an article number (citation-js reads it back as the CSL `number`).
    ["eid", type === "article" ? braced(item.number) : undefined],
    ["pages", braced(item.page?.replace(/\s*[-–]\s*/, "--"))],
    ["issn", braced(item.ISSN)],
    ["isbn", braced(item.ISBN)],
    ["doi", verbatim(item.DOI)],
    ["url", verbatim(item.URL)],
    ["pmid", braced(item.PMID)],
    ["pmcid", braced(item.PMCID)],
    ["eprint", braced(arxiv)],
    ["archiveprefix", arxiv ? "{arXiv}" : undefined],
  ];
  const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = ${v}`).join(",\n");
  return `@${type}{${item.id},\n${body}\n}`;
}

function year(date: CslDate | undefined): string | undefined {
  const y = date?.["date-parts"]?.[0]?.[0];
  return y ? String(y) : undefined;
}

/** A month macro (`mar`) when the record names one month; a season or range stays text (`{Jan-Mar}`). */
function month(date: CslDate | undefined): string | undefined {
  if (date?.season) return braced(date.season);
  const m = date?.["date-parts"]?.[0]?.[1];
  return m ? MONTHS[m - 1] : undefined;
}

function names(list: CslName[] | undefined): string | undefined {
  if (!list?.length) return undefined;
  return `{${
    list.map((n) =>
      n.literal ? `{${escape(n.literal)}}` : `${family(n.family ?? "")}${n.given ? `, ${escape(n.given)}` : ""}`
    ).join(" and ")
  }}`;
}

/**
 * A name in a field biblatex reads as a list (publisher, institution, school, location): an inner pair of
 * braces keeps "Springer Science and Business Media LLC" one name rather than two.
 */
function listBraced(value: string | undefined): string | undefined {
  return value && / and /.test(value) ? `{{${escape(plain(value))}}}` : braced(value);
}

function braced(value: string | undefined): string | undefined {
  return value ? `{${escape(plain(value))}}` : undefined;
}

/** A family name holding a comma or " and " is braced, so it stays one surname. */
function family(value: string): string {
  return /,| and /.test(value) ? `{${escape(value)}}` : escape(value);
}

/** A verbatim field: no LaTeX escapes; only what would close or break the field is percent-encoded. */
function verbatim(value: string | undefined): string | undefined {
  return value ? `{${value.replace(/[{}\\]/g, (c) => encodeURIComponent(c))}}` : undefined;
}

/** Rich-text markup CSL allows in titles (`<i>`, `<sup>`…) dropped: BibTeX has its own. */
function plain(value: string): string {
  return value.replace(/<\/?(?:i|b|sup|sub|sc|span)(?:\s[^>]*)?>/gi, "");
}

/** Escapes the characters BibTeX/LaTeX treat specially; other Unicode passes through (biber reads UTF-8). */
function escape(value: string): string {
  return value.replace(/[\\{}&%$#_~^]/g, (c) => SPECIAL[c]);
}
