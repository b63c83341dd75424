/**
 * RIS (Research Information Systems) record: `TAG  - value` lines closed by `ER  - `. Journal articles
 * are `JOUR`, whole books `BOOK`, chapters `CHAP`. Values are single lines.
 */
import { type CitationRecord, recordPage } from "./record.ts";
import { citedDate } from "./cited_date.ts";
import { pageRange, surnameFirst } from "./parts.ts";

export function formatRis(article: CitationRecord): string {
  const lines: string[] = [];
  const add = (tag: string, value: string | undefined) => {
    const v = value?.replace(/\s+/g, " ").trim();
    if (v) lines.push(`${tag}  - ${v}`);
  };
  const type = article.recordType === "book" ? "BOOK" : article.recordType === "book_chapter" ? "CHAP" : "JOUR";
  add("TY", type);
  for (const a of article.authors) add("AU", surnameFirst(a));
  for (const e of article.book?.editors ?? []) add("ED", surnameFirst(e));
  add("TI", article.title);
  if (article.vernacularTitle) add("TT", article.vernacularTitle);
  const info = article.journalInfo;
  if (type === "JOUR") {
    add("T2", info.title);
    add("JO", info.isoAbbreviation);
  } else if (type === "CHAP") add("T2", article.book?.bookTitle);
  // DA is YYYY/MM/DD/other: a season or range goes in "other", never as an invented month.
  const d = citedDate(info.publicationDate);
  add("PY", d.year);
  if (d.year) add("DA", `${d.year}/${d.month ?? ""}/${d.day ?? ""}/${d.season ?? ""}`);
  add("VL", info.volume);
  add("IS", info.issue);
  const pages = pageRange(info.pages);
  add("SP", pages?.start);
  add("EP", pages?.end);
  add("PB", article.book?.publisher);
  add("CY", article.book?.publisherLocation);
  add("SN", info.issn ?? article.book?.isbn[0]);
  add("AB", article.abstractText);
  for (const k of article.keywords) add("KW", k);
  for (const l of article.languages) add("LA", l);
  add("DO", article.doi);
  add("AN", article.pmid);
  add("C2", article.pmcId);
  add("UR", recordPage(article));
  add("DB", article.database ?? (article.pmid ? "PubMed" : undefined));
  lines.push("ER  - ");
  return lines.join("\n");
}
