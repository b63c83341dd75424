/**
 * Vancouver (ICMJE / NLM "Citing Medicine") reference:
 * `Wakefield AJ, Murch SH, Anthony A. Title. Lancet. 1998 Feb;351(9103):637-41. doi: 10.1016/…`.
 * Up to six authors, then "et al."; the journal's ISO abbreviation when the record has one.
 */
import { citedDate } from "./cited_date.ts";
import { bareTitle, sentence } from "./parts.ts";
import { type CitationRecord, recordPage } from "./record.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export function formatVancouver(record: CitationRecord): string {
  const names = record.authors.map((a) =>
    a.collectiveName ?? [a.lastName, a.initials ?? initialsOf(a.firstName)].filter(Boolean).join(" ")
  ).filter(Boolean);
  const authors = names.length > 6
    ? `${names.slice(0, 6).join(", ")}, et al.`
    : names.length
    ? `${names.join(", ")}.`
    : "";
  const info = record.journalInfo;
  const d = citedDate(info.publicationDate);
  const when = [d.year, d.season ?? (d.month ? MONTHS[Number(d.month) - 1] : undefined)].filter(Boolean).join(" ");
  let source: string;
  if (record.book) {
    const place = [record.book.publisherLocation, record.book.publisher].filter(Boolean).join(": ");
    source = [place, d.year].filter(Boolean).join("; ") + ".";
  } else {
    const journal = (info.isoAbbreviation ?? info.title ?? "").replace(/\.$/, "");
    const volume = `${info.volume ?? ""}${info.issue ? `(${info.issue})` : ""}`;
    const locator = [volume, info.pages].filter(Boolean).join(":");
    source = [journal && `${journal}.`, [when, locator].filter(Boolean).join(";") + "."].filter(Boolean).join(" ");
  }
  const link = record.doi ? `doi: ${record.doi}` : recordPage(record);
  return [authors, sentence(bareTitle(record)), source, link].filter((s) => s && s !== ".").join(" ");
}

/** "Nathaniel L" → "NL"; "Josiah" → "J". */
function initialsOf(given: string | undefined): string | undefined {
  const letters = (given ?? "").split(/[\s.-]+/).map((p) => p[0] ?? "").join("");
  return letters || undefined;
}
