/**
 * Pieces shared by journal articles and book records: authors, abstracts, dates, ids, MeSH, grants.
 * Each takes a parsed element (see pubmed_xml.ts) and returns plain record fields.
 */
import { pubMedDate } from "./dates.ts";
import type { Grant, MeshTerm, PubMedAuthor, PubMedDate } from "./types.ts";
import { attr, children, get, mixedText, plainText } from "./xml.ts";

/** Authors of one AuthorList; `ValidYN="N"` entries (names NLM has marked as erroneous) are dropped. */
export function parseAuthors(authorList: unknown): PubMedAuthor[] {
  const out: PubMedAuthor[] = [];
  for (const a of children(authorList, "Author")) {
    if (attr(a, "ValidYN") === "N") continue;
    const author: PubMedAuthor = {};
    const collective = mixedText(get(a, "CollectiveName"));
    if (collective) author.collectiveName = collective;
    const lastName = plainText(get(a, "LastName"));
    if (lastName) author.lastName = lastName;
    const firstName = plainText(get(a, "ForeName") ?? get(a, "FirstName"));
    if (firstName) author.firstName = firstName;
    const initials = plainText(get(a, "Initials"));
    if (initials) author.initials = initials;
    const affiliations = children(a, "AffiliationInfo").map((info) => mixedText(get(info, "Affiliation"))).filter((
      x,
    ): x is string => Boolean(x));
    if (affiliations.length) author.affiliation = affiliations.join("; ");
    const orcid = children(a, "Identifier").find((id) => attr(id, "Source")?.toUpperCase() === "ORCID");
    const orcidId = orcid === undefined ? undefined : normaliseOrcid(plainText(orcid));
    if (orcidId) author.orcid = orcidId;
    if (author.collectiveName || author.lastName) out.push(author);
  }
  return out;
}

/** `https://orcid.org/0000-0002-1825-0097`, `0000000218250097` → `0000-0002-1825-0097`. */
function normaliseOrcid(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const digits = value.replace(/^.*orcid\.org\//i, "").replace(/[^0-9Xx]/g, "").toUpperCase();
  if (digits.length !== 16) return value.trim() || undefined;
  return digits.match(/.{4}/g)!.join("-");
}

/** Readable abstract; each labelled part of a structured abstract keeps its label ("METHODS: ..."). */
export function parseAbstract(abstract: unknown): string | undefined {
  const parts = children(abstract, "AbstractText").map((part) => {
    const body = mixedText(part);
    if (!body) return undefined;
    const label = attr(part, "Label")?.trim();
    return label ? `${label}: ${body}` : body;
  }).filter((x): x is string => Boolean(x));
  return parts.length ? parts.join("\n\n") : undefined;
}

/** A PubDate/ArticleDate-like element → standardised date with the originals kept. */
export function parseDate(node: unknown): PubMedDate {
  return pubMedDate({
    year: plainText(get(node, "Year")),
    month: plainText(get(node, "Month")),
    day: plainText(get(node, "Day")),
    season: plainText(get(node, "Season")),
    medlineDate: plainText(get(node, "MedlineDate")),
  });
}

/** ArticleId values by IdType (`doi`, `pmc`, `bookaccession`, ...). */
export function articleIds(idList: unknown): Map<string, string> {
  const ids = new Map<string, string>();
  for (const id of children(idList, "ArticleId")) {
    const type = attr(id, "IdType");
    const value = plainText(id);
    if (type && value && !ids.has(type)) ids.set(type, value);
  }
  return ids;
}

/** The DOI an ELocationID gives, unless NLM flagged it invalid. */
export function eLocationDoi(container: unknown): string | undefined {
  const loc = children(container, "ELocationID").find((e) =>
    attr(e, "EIdType") === "doi" && attr(e, "ValidYN") !== "N"
  );
  return loc === undefined ? undefined : plainText(loc);
}

/** One entry per descriptor, or per descriptor/qualifier pair when qualifiers are given (as PubMed lists them). */
export function parseMesh(meshList: unknown): MeshTerm[] {
  const out: MeshTerm[] = [];
  for (const heading of children(meshList, "MeshHeading")) {
    const descriptor = get(heading, "DescriptorName");
    const descriptorName = plainText(descriptor);
    if (!descriptorName) continue;
    const major = attr(descriptor, "MajorTopicYN") === "Y";
    const ui = attr(descriptor, "UI");
    const base: MeshTerm = { descriptorName, isMajorTopic: major, ...(ui ? { ui } : {}) };
    const qualifiers = children(heading, "QualifierName");
    if (qualifiers.length === 0) out.push(base);
    for (const q of qualifiers) {
      const qualifierName = plainText(q);
      if (!qualifierName) continue;
      out.push({ ...base, qualifierName, isMajorTopic: major || attr(q, "MajorTopicYN") === "Y" });
    }
  }
  return out;
}

export function parseGrants(grantList: unknown): Grant[] {
  return children(grantList, "Grant").map((g) => {
    const grant: Grant = {};
    const grantId = plainText(get(g, "GrantID"));
    if (grantId) grant.grantId = grantId;
    const agency = plainText(get(g, "Agency"));
    if (agency) grant.agency = agency;
    const country = plainText(get(g, "Country"));
    if (country) grant.country = country;
    const acronym = plainText(get(g, "Acronym"));
    if (acronym) grant.acronym = acronym;
    return grant;
  }).filter((g) => Object.keys(g).length > 0);
}

export function parseKeywords(container: unknown): string[] {
  return children(container, "KeywordList").flatMap((list) => children(list, "Keyword"))
    .map(mixedText).filter((k): k is string => Boolean(k));
}

export function textList(container: unknown, name: string): string[] {
  return children(container, name).map(plainText).filter((x): x is string => Boolean(x));
}
