/**
 * BibTeX entry (`@article`, `@book` or `@incollection`) with a stable key: first author's surname
 * (ASCII), year and PMID, e.g. `Ritz2024_38147649`, so the same article always gets the same key.
 */
import type { PubMedAuthor } from "../ncbi/pubmed/types.ts";
import { type CitationRecord, recordKeyId } from "./record.ts";
import { type CitedDate, citedDate } from "./cited_date.ts";
import { journalName, pageRange } from "./parts.ts";

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

export function bibtexKey(article: CitationRecord): string {
  const first = article.authors[0];
  const fallback = article.pmid ? "PMID" : "Anon";
  const name = first?.lastName ?? first?.collectiveName?.split(/\s+/).find((w) => w.length > 3) ?? fallback;
  const ascii = name.normalize("NFKD").replace(/[^A-Za-z0-9]/g, "");
  return `${ascii || fallback}${article.journalInfo.publicationDate.year ?? ""}_${recordKeyId(article)}`;
}

export function formatBibtex(article: CitationRecord): string {
  const type = article.recordType === "book"
    ? "book"
    : article.recordType === "book_chapter"
    ? "incollection"
    : "article";
  const info = article.journalInfo;
  const fields: [string, string | undefined][] = [
    ["author", names(article.authors)],
    ["editor", names(article.book?.editors ?? [])],
    // Double braces keep the title's capitalisation (gene names, acronyms) in every bibliography style.
    ["title", article.title ? `{{${escape(article.title.replace(/\.$/, ""))}}}` : undefined],
    ["journal", type === "article" ? braced(journalName(article)) : undefined],
    ["booktitle", type === "incollection" ? braced(article.book?.bookTitle) : undefined],
    ["publisher", braced(article.book?.publisher)],
    ["address", braced(article.book?.publisherLocation)],
    ["year", braced(info.publicationDate.year)],
    ["month", month(citedDate(info.publicationDate))],
    ["volume", braced(info.volume)],
    ["number", braced(info.issue)],
    ["pages", braced(pages(info.pages))],
    ["issn", braced(info.issn)],
    ["isbn", braced(article.book?.isbn[0])],
    ["doi", braced(article.doi)],
    ["pmid", braced(article.pmid)],
    ["pmcid", braced(article.pmcId)],
    ["eprint", braced(article.arxivId)],
    ["archiveprefix", article.arxivId ? "{arXiv}" : undefined],
  ];
  const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = ${v}`).join(",\n");
  return `@${type}{${bibtexKey(article)},\n${body}\n}`;
}

/** A month macro (`mar`) when the record names one month; a season or range stays text (`{Jan-Mar}`). */
function month(date: CitedDate): string | undefined {
  if (date.season) return braced(date.season);
  return date.month ? MONTHS[Number(date.month) - 1] : undefined;
}

function names(authors: PubMedAuthor[]): string | undefined {
  if (authors.length === 0) return undefined;
  return `{${
    authors.map((a) =>
      a.collectiveName
        ? `{${escape(a.collectiveName)}}`
        : escape(a.firstName ? `${a.lastName}, ${a.firstName}` : a.lastName ?? "")
    ).join(" and ")
  }}`;
}

function pages(value: string | undefined): string | undefined {
  const range = pageRange(value);
  if (!range) return undefined;
  return range.end ? `${range.start}--${range.end}` : range.start;
}

function braced(value: string | undefined): string | undefined {
  return value ? `{${escape(value)}}` : undefined;
}

/** Escapes the characters BibTeX/LaTeX treat specially; other Unicode passes through (biber reads UTF-8). */
function escape(value: string): string {
  return value.replace(/[\\{}&%$#_~^]/g, (c) => SPECIAL[c]);
}
