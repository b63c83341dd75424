/**
 * MLA 9th edition works-cited entry:
 * `Last, First, et al. "Title." Journal, vol. 77, no. 6, Sept. 2022, pp. 770-80. https://doi.org/….`
 * One author by name, two joined with "and", three or more as the first and "et al.".
 */
import type { PubMedArticle } from "../../../sources/ncbi/pubmed/types.ts";
import { standardMonth } from "../../../sources/ncbi/pubmed/dates.ts";
import { pubmedUrl } from "../pmid.ts";
import { bareTitle, doiUrl, firstSurname, journalName, pageRange, surnameFirst } from "./parts.ts";

const MLA_MONTHS = ["Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."];

export function formatMla(article: PubMedArticle): string {
  const parts: string[] = [];
  const authors = mlaAuthors(article);
  if (authors) parts.push(authors.endsWith(".") ? authors : `${authors}.`);
  // A quotation inside a quoted title takes single quotation marks.
  const title = bareTitle(article).replace(/"([^"]*)"/g, "'$1'");
  parts.push(`"${/[?!]$/.test(title) ? title : `${title}.`}"`);
  parts.push(article.book ? mlaBook(article) : mlaJournal(article));
  parts.push(`${article.doi ? doiUrl(article.doi) : pubmedUrl(article.pmid)}.`);
  return parts.join(" ");
}

function mlaAuthors(article: PubMedArticle): string {
  const a = article.authors;
  if (a.length === 0) return "";
  const first = dotInitials(surnameFirst(a[0]));
  if (a.length === 1) return first;
  if (a.length === 2) return `${first}, and ${dotInitials(firstSurname(a[1]))}`;
  return `${first}, et al`;
}

/** PubMed writes middle initials bare ("Esteban M"); MLA writes "Esteban M.". */
function dotInitials(name: string): string {
  return name.replace(/(^|[\s,])(\p{Lu})(?=\s|$)/gu, "$1$2.");
}

function mlaDate(article: PubMedArticle): string {
  const d = article.journalInfo.publicationDate;
  if (!d.year || article.book) return d.year ?? "";
  const span = /(?:^|\s)([A-Za-z]{3})-([A-Za-z]{3})$/.exec(d.season ?? d.medlineDate ?? "");
  const from = span ? standardMonth(span[1]) : undefined;
  const to = span ? standardMonth(span[2]) : undefined;
  if (from && to) return `${MLA_MONTHS[Number(from) - 1]}-${MLA_MONTHS[Number(to) - 1]} ${d.year}`;
  const month = d.month ? MLA_MONTHS[Number(d.month) - 1] : undefined;
  if (!month) return d.season && !/^[A-Za-z]{3}-/.test(d.season) ? `${d.season} ${d.year}` : d.year;
  return [d.day ? String(Number(d.day)) : undefined, month, d.year].filter(Boolean).join(" ");
}

/** MLA shortens the second number of a range to its last two digits where that is unambiguous. */
function mlaPages(pages: string | undefined): string | undefined {
  const range = pageRange(pages);
  if (!range) return undefined;
  if (!range.end) return `p. ${range.start}`;
  let end = range.end;
  if (/^\d+$/.test(range.start) && /^\d+$/.test(end) && Number(range.start) > 99 && end.length === range.start.length) {
    let keep = 2;
    while (keep < end.length && range.start.slice(0, -keep) !== end.slice(0, -keep)) keep++;
    end = end.slice(-keep);
  }
  return `pp. ${range.start}-${end}`;
}

function mlaJournal(article: PubMedArticle): string {
  const { volume, issue, pages } = article.journalInfo;
  const container = [
    journalName(article),
    volume ? `vol. ${volume}` : undefined,
    issue ? `no. ${issue}` : undefined,
    mlaDate(article) || undefined,
    mlaPages(pages),
  ].filter(Boolean);
  return `${container.join(", ")}.`;
}

function mlaBook(article: PubMedArticle): string {
  const book = article.book!;
  const publisher = book.publisher?.replace(/\s*\([^)]*\)\s*$/, "");
  const container = [
    article.recordType === "book_chapter" ? book.bookTitle : undefined,
    publisher,
    mlaDate(article) || undefined,
  ].filter(Boolean);
  return `${container.join(", ")}.`;
}
