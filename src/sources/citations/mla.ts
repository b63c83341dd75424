/**
 * MLA 9th edition works-cited entry:
 * `Last, First, et al. "Title." Journal, vol. 77, no. 6, Sept. 2022, pp. 770-80. https://doi.org/….`
 * One author by name, two joined with "and", three or more as the first and "et al.".
 */
import { type CitationRecord, recordLink } from "./record.ts";
import { standardMonth } from "../ncbi/pubmed/dates.ts";
import { citedDate } from "./cited_date.ts";
import { bareTitle, firstSurname, journalName, pageRange, surnameFirst } from "./parts.ts";

const MLA_MONTHS = ["Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."];

export function formatMla(article: CitationRecord): string {
  const parts: string[] = [];
  const authors = mlaAuthors(article);
  if (authors) parts.push(authors.endsWith(".") ? authors : `${authors}.`);
  // A quotation inside a quoted title takes single quotation marks.
  const title = bareTitle(article).replace(/"([^"]*)"/g, "'$1'");
  parts.push(`"${/[?!]$/.test(title) ? title : `${title}.`}"`);
  parts.push(article.book ? mlaBook(article) : mlaJournal(article));
  const link = recordLink(article);
  if (link) parts.push(`${link}.`);
  return parts.join(" ");
}

function mlaAuthors(article: CitationRecord): string {
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

function mlaDate(article: CitationRecord): string {
  const d = citedDate(article.journalInfo.publicationDate);
  if (!d.year || article.book) return d.year ?? "";
  if (d.season) {
    // "Jan-Mar" → "Jan.-Mar."; other seasons and ranges ("Spring", "Dec-1999 Jan") as written.
    const span = /^([A-Za-z]{3})[a-z]*-([A-Za-z]{3})[a-z]*$/.exec(d.season);
    const from = span ? standardMonth(span[1]) : undefined;
    const to = span ? standardMonth(span[2]) : undefined;
    if (from && to) return `${MLA_MONTHS[Number(from) - 1]}-${MLA_MONTHS[Number(to) - 1]} ${d.year}`;
    // A range across years ("Dec-1999 Jan") reads only as PubMed writes it: "1998 Dec-1999 Jan".
    return /\d{4}/.test(d.season) ? `${d.year} ${d.season}` : `${d.season} ${d.year}`;
  }
  const month = d.month ? MLA_MONTHS[Number(d.month) - 1] : undefined;
  if (!month) return d.year;
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

function mlaJournal(article: CitationRecord): string {
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

function mlaBook(article: CitationRecord): string {
  const book = article.book!;
  const publisher = book.publisher?.replace(/\s*\([^)]*\)\s*$/, "");
  const container = [
    article.recordType === "book_chapter" ? book.bookTitle : undefined,
    publisher,
    mlaDate(article) || undefined,
  ].filter(Boolean);
  return `${container.join(", ")}.`;
}
