/**
 * BibTeX entry (`@article`, `@book` or `@incollection`) with a stable key: first author's surname
 * (ASCII), year and PMID, e.g. `Ritz2024_38147649`, so the same article always gets the same key.
 */
import type { PubMedArticle, PubMedAuthor } from "../../../sources/ncbi/pubmed/types.ts";
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

export function bibtexKey(article: PubMedArticle): string {
  const first = article.authors[0];
  const name = first?.lastName ?? first?.collectiveName?.split(/\s+/).find((w) => w.length > 3) ?? "PMID";
  const ascii = name.normalize("NFKD").replace(/[^A-Za-z0-9]/g, "");
  return `${ascii || "PMID"}${article.journalInfo.publicationDate.year ?? ""}_${article.pmid}`;
}

export function formatBibtex(article: PubMedArticle): string {
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
    ["month", info.publicationDate.month ? MONTHS[Number(info.publicationDate.month) - 1] : undefined],
    ["volume", braced(info.volume)],
    ["number", braced(info.issue)],
    ["pages", braced(pages(info.pages))],
    ["issn", braced(info.issn)],
    ["isbn", braced(article.book?.isbn[0])],
    ["doi", braced(article.doi)],
    ["pmid", braced(article.pmid)],
    ["pmcid", braced(article.pmcId)],
  ];
  const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = ${v}`).join(",\n");
  return `@${type}{${bibtexKey(article)},\n${body}\n}`;
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
