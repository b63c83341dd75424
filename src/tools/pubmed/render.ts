/**
 * How PubMed records read in a text block: authors as PubMed cites them (with given names, ORCIDs and
 * numbered affiliations, each written once), journal and dates on one line, MeSH terms with their major-topic
 * marks. The rest of a record is rendered field by field (src/render/markdown.ts).
 */
import type { z } from "../../core/zod.ts";
import { fieldLines, inlineList, type Lines, recordSection } from "../../render/markdown.ts";
import { isRetracted } from "../../sources/ncbi/pubmed/types.ts";
import { updateLine } from "../../sources/works/updates.ts";
import { untrustedField } from "../../render/untrusted.ts";
import type { articleSchema, authorSchema, dateSchema, journalInfoSchema, meshTermSchema } from "./schemas.ts";

type Article = z.output<typeof articleSchema>;
type Author = z.output<typeof authorSchema>;
type PubDate = z.output<typeof dateSchema>;

/** `Qian ZR (Zhi Rong)`: PubMed's citation form, the given name added when it says more than the initials. */
export function authorName(a: Author): string {
  if (a.collectiveName) return a.collectiveName;
  const cited = [a.lastName, a.initials].filter(Boolean).join(" ");
  const given = a.firstName && a.firstName !== a.initials ? ` (${a.firstName})` : "";
  return (cited || a.firstName || "") + (cited ? given : "");
}

/**
 * `authors: Bao Y (Ying) [1], Yuan C (Chen) [2,3]` and a numbered affiliation list: each institution is
 * written once and referred to by number, also when an author has several (the record joins an author's
 * affiliations with "; "; #34). structuredContent keeps each author's `affiliation` as the seed has it.
 */
export function authorLines(authors: readonly Author[], key = "authors"): Lines {
  const affiliations: string[] = [];
  const numbers = new Map<string, number>();
  const names = authors.map((a) => {
    let name = authorName(a);
    if (a.orcid) name += ` ORCID ${a.orcid}`;
    if (a.affiliation) {
      const refs = institutions(a.affiliation).map((institution) => {
        const key = institution.toLowerCase().replace(/[\s.]+$/, "");
        let n = numbers.get(key);
        if (n === undefined) numbers.set(key, n = affiliations.push(institution));
        return n;
      });
      name += ` [${[...new Set(refs)].join(",")}]`;
    }
    return name;
  });
  return [
    `${key}: ${inlineList(names) ?? names.join("; ")}`,
    ...(affiliations.length ? ["affiliations:", ...affiliations.map((text, i) => `${i + 1}. ${text}`)] : []),
  ];
}

/** An author's affiliations, as the record joins them ("; "), each trimmed. */
function institutions(affiliation: string): string[] {
  const parts = affiliation.split(/;\s+/).map((part) => part.trim()).filter(Boolean);
  return parts.length ? parts : [affiliation];
}

/** `2016-10-31`, `2015 Spring`, or MEDLINE's free-text date (`2015 Oct-Dec`) as given. */
export function dateText(d: PubDate): string {
  const numeric = [d.year, d.month, d.day].filter(Boolean).join("-");
  return [numeric, d.season, d.medlineDate].filter(Boolean).join(" ");
}

export function journalLine(j: z.output<typeof journalInfoSchema>): string {
  const parts = [
    j.title && j.isoAbbreviation && j.isoAbbreviation !== j.title ? `${j.title} (${j.isoAbbreviation})` : j.title ??
      j.isoAbbreviation,
    j.issn && `ISSN ${j.issn}`,
    j.volume && `vol. ${j.volume}`,
    j.issue && `issue ${j.issue}`,
    j.pages && `pages ${j.pages}`,
    dateText(j.publicationDate) && `published ${dateText(j.publicationDate)}`,
  ];
  return `journal: ${parts.filter(Boolean).join(", ")}`;
}

/** `MeSH (* major topic): Humans [D006801]; Pancreatic Neoplasms / genetics* [D010190]`. */
export function meshLine(terms: readonly z.output<typeof meshTermSchema>[]): string {
  const shown = terms.map((t) =>
    `${t.descriptorName}${t.qualifierName ? ` / ${t.qualifierName}` : ""}${t.isMajorTopic ? "*" : ""}` +
    (t.ui ? ` [${t.ui}]` : "")
  );
  return `MeSH (* major topic): ${shown.join("; ")}`;
}

function fenced(language: string) {
  return (text: string, key: string): Lines => [`${key}:`, "```" + language, text, "```"];
}

/** `RETRACTED: notice PMID 20137807 (Lancet. 2010 Feb 6;375(9713):445.)`, one per notice. */
function retractionLine(notices: NonNullable<Article["retractedIn"]>): string {
  const shown = notices.map((n) =>
    [n.pmid && `notice PMID ${n.pmid}`, n.refSource && `(${n.refSource})`].filter(Boolean).join(" ")
  );
  return `RETRACTED: ${shown.join("; ")}`;
}

/** One fetched article: a heading with its PMID and title (RETRACTED when PubMed says so), then every field. */
export function articleSection(a: Article): Lines {
  const mark = isRetracted({ publicationTypes: a.publicationTypes ?? [], retractedIn: a.retractedIn })
    ? " RETRACTED"
    : "";
  return recordSection(a.title ? `PMID ${a.pmid}${mark}: ${a.title}` : `PMID ${a.pmid}${mark}`, a, {
    omit: ["pmid", "title"],
    format: {
      retractedIn: retractionLine,
      updates: (list: NonNullable<Article["updates"]>) => `updates: ${list.map(updateLine).join("; ")}`,
      authors: (authors: Author[]) => authorLines(authors),
      journalInfo: journalLine,
      meshTerms: meshLine,
      electronicDate: (d: PubDate) => `electronicDate: ${dateText(d)}`,
      otherAbstracts: (list: NonNullable<Article["otherAbstracts"]>) =>
        list.map((a) => `abstract (${a.type}${a.language ? `, ${a.language}` : ""}): ${a.text}`),
      book: (book: NonNullable<Article["book"]>) => [
        "book:",
        ...fieldLines(book, {
          indent: "  ",
          format: {
            editors: (editors: Author[]) => authorLines(editors, "editors"),
            contributionDate: (d: PubDate) => `chapter contributed: ${dateText(d)}`,
            revisedDate: (d: PubDate) => `chapter revised: ${dateText(d)}`,
            beginningDate: (d: PubDate) => `series since: ${dateText(d)}`,
            endingDate: (d: PubDate) => `series until: ${dateText(d)}`,
          },
        }),
      ],
      abstractText: (text: string, key) => untrustedField(text, key),
      fullXml: fenced("xml"),
      medlineText: fenced(""),
    },
  });
}
