/**
 * An arXiv entry → CSL-JSON: a preprint (`article`, genre preprint) whose publisher is arXiv and whose
 * number is the arXiv id, as reference managers record it. A journal reference, when the entry has one, is
 * free text and goes nowhere.
 */
import type { ArxivEntry } from "../../arxiv/types.ts";
import { citationKey, clean, compactItem, type CslItem, isoToCslDate, splitDisplayName } from "../csl.ts";

export function arxivToCsl(e: ArxivEntry): CslItem {
  const author = e.authors.map(splitDisplayName).filter((n) => n.family);
  const issued = isoToCslDate(e.published.slice(0, 10));
  const doi = clean(e.doi);
  return compactItem({
    id: citationKey(author, issued, { arxiv: e.id, doi }),
    type: "article",
    genre: "preprint",
    title: clean(e.title) ?? "",
    author,
    number: `arXiv:${e.id}`,
    publisher: "arXiv",
    issued,
    DOI: doi,
    URL: doi ? undefined : `https://arxiv.org/abs/${e.id}`,
    abstract: clean(e.summary),
    source: "arXiv",
    custom: { arxiv: e.id },
  });
}
