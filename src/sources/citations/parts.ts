/**
 * Pieces every citation style needs: names, page ranges, journal titles and dates, derived from a
 * fetched {@link CitationRecord}. Pure functions; the styles decide punctuation.
 */
import type { PubMedAuthor } from "../ncbi/pubmed/types.ts";
import type { CitationRecord } from "./record.ts";

/** "NL" → "N. L."; "CJR" → "C. J. R."; falls back to the first letters of the first names. */
function dottedInitials(author: PubMedAuthor): string {
  const letters = author.initials ?? (author.firstName ?? "").split(/[\s-]+/).map((p) => p[0] ?? "").join("");
  return [...letters].filter((c) => /\p{L}/u.test(c)).map((c) => `${c}.`).join(" ");
}

/** "Ritz, N. L." or the group name. */
export function surnameInitials(author: PubMedAuthor): string {
  if (author.collectiveName) return author.collectiveName;
  const initials = dottedInitials(author);
  return initials ? `${author.lastName}, ${initials}` : author.lastName ?? "";
}

/** "Ritz, Nathaniel L" (RIS/BibTeX/MLA first author) or the group name. */
export function surnameFirst(author: PubMedAuthor): string {
  if (author.collectiveName) return author.collectiveName;
  return author.firstName ? `${author.lastName}, ${author.firstName}` : author.lastName ?? "";
}

/** "Nathaniel L Ritz" (MLA second author) or the group name. */
export function firstSurname(author: PubMedAuthor): string {
  if (author.collectiveName) return author.collectiveName;
  return [author.firstName, author.lastName].filter(Boolean).join(" ");
}

export interface PageRange {
  start: string;
  end?: string;
}

/**
 * MEDLINE abbreviates page ranges ("332-40" means 332 to 340); this gives both ends in full. Ranges
 * that are not plain numbers ("1016-1021.e6", "e1-8") keep their tokens as written.
 */
export function pageRange(pages: string | undefined): PageRange | undefined {
  if (!pages) return undefined;
  const first = pages.split(/[;,]/)[0].trim();
  const m = /^(\w[\w.]*)\s*[-–]\s*(\w[\w.]*)$/.exec(first);
  if (!m) return first ? { start: first } : undefined;
  const [, start, end] = m;
  if (/^\d+$/.test(start) && /^\d+$/.test(end) && end.length < start.length) {
    return { start, end: start.slice(0, start.length - end.length) + end };
  }
  return { start, end };
}

const MINOR_WORDS = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "but",
  "by",
  "de",
  "der",
  "des",
  "du",
  "et",
  "for",
  "from",
  "in",
  "la",
  "le",
  "nor",
  "of",
  "on",
  "or",
  "the",
  "to",
  "und",
  "via",
  "with",
]);

/**
 * NLM catalogue titles ("The American psychologist", "Social justice (San Francisco, Calif.)",
 * "Tidsskrift for den Norske laegeforening : tidsskrift for praktisk medicin, ny raekke") → the journal
 * name styles cite: place qualifier and subtitle removed, then title case.
 */
export function journalName(article: CitationRecord): string {
  const raw = article.journalInfo.title ?? article.journalInfo.isoAbbreviation ?? "";
  const base = raw.split(" : ")[0].replace(/\s*\([^)]*\)\s*$/, "").replace(/[.\s]+$/, "").trim();
  return titleCase(base);
}

function titleCase(text: string): string {
  return text.split(" ").map((word, i) => {
    if (!word || /\p{Lu}/u.test(word.slice(1)) || /\d/.test(word)) return word;
    if (i > 0 && MINOR_WORDS.has(word.toLowerCase())) return word.toLowerCase();
    return word[0].toUpperCase() + word.slice(1);
  }).join(" ");
}

/** The title without its final period (styles add their own punctuation). */
export function bareTitle(article: CitationRecord): string {
  return article.title.replace(/\.\s*$/, "").trim();
}

/** Title with final punctuation: a title ending in ? or ! keeps it, otherwise one period. */
export function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

export function year(article: CitationRecord): string | undefined {
  return article.journalInfo.publicationDate.year;
}

/** DOI links, percent-encoded where a DOI holds characters a URL cannot. */
export { doiUrl } from "../doi_url.ts";
