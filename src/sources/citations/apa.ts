/**
 * APA 7th edition reference: `Authors. (Year). Title. Journal, Volume(Issue), pages. https://doi.org/…`.
 * Up to 20 authors are listed; from 21, the first 19, an ellipsis and the last. Without a DOI the
 * PubMed URL is given.
 */
import { type CitationRecord, recordLink } from "./record.ts";
import { bareTitle, journalName, pageRange, sentence, surnameInitials, year } from "./parts.ts";

export function formatApa(article: CitationRecord): string {
  const names = article.authors.map(surnameInitials).filter(Boolean);
  const title = sentence(bareTitle(article));
  const date = `(${year(article) ?? "n.d."}).`;
  const head = names.length ? `${apaAuthors(names)} ${date} ${title}` : `${title} ${date}`;
  const link = recordLink(article);
  const source = article.book ? apaBookSource(article) : apaJournalSource(article);
  return [head, source, link].filter(Boolean).join(" ");
}

function apaAuthors(names: string[]): string {
  if (names.length === 1) return withPeriod(names[0]);
  if (names.length <= 20) return withPeriod(`${names.slice(0, -1).join(", ")}, & ${names[names.length - 1]}`);
  return withPeriod(`${names.slice(0, 19).join(", ")}, . . . ${names[names.length - 1]}`);
}

function withPeriod(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}

function apaJournalSource(article: CitationRecord): string {
  const { volume, issue, pages } = article.journalInfo;
  let source = journalName(article);
  if (volume) source += `, ${volume}${issue ? `(${issue})` : ""}`;
  else if (issue) source += `, (${issue})`;
  const range = pageRange(pages);
  if (range) source += `, ${range.end ? `${range.start}–${range.end}` : range.start}`;
  return `${source}.`;
}

function apaBookSource(article: CitationRecord): string {
  const book = article.book!;
  const publisher = book.publisher ? `${book.publisher.replace(/\s*\([^)]*\)\s*$/, "")}.` : "";
  if (article.recordType !== "book_chapter" || !book.bookTitle) return publisher;
  const editors = book.editors.map(surnameInitials);
  const eds = editors.length ? `${editors.join(", ")} (${editors.length > 1 ? "Eds." : "Ed."}), ` : "";
  return `In ${eds}${book.bookTitle}. ${publisher}`.trim();
}
