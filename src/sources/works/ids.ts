/**
 * A work named by any id the server knows: PMID, PMCID, DOI, arXiv id or OpenAlex W id, in the dresses
 * callers paste (`PMID:…`, `doi:…`, `https://doi.org/…`, `arXiv:…`, `https://openalex.org/W…`).
 */
import { normalizeArxivId, stripVersion } from "../arxiv/ids.ts";
import { parseArticleId } from "../idconv/ids.ts";
import { normalizeWorkId } from "../openalex/ids.ts";

export type WorkRef = { kind: "pmid" | "pmcid" | "doi" | "arxiv" | "openalex"; id: string };

/**
 * @example parseWorkRef("arXiv:2104.12255v1") // { kind: "arxiv", id: "2104.12255v1" }
 * @example parseWorkRef("https://openalex.org/W2741809807") // { kind: "openalex", id: "W2741809807" }
 */
export function parseWorkRef(raw: string): WorkRef | undefined {
  const wid = normalizeWorkId(raw);
  if (wid) return { kind: "openalex", id: wid };
  const arxiv = normalizeArxivId(raw);
  if (arxiv) return { kind: "arxiv", id: arxiv };
  const article = parseArticleId(raw);
  return article ? { kind: article.type, id: article.id } : undefined;
}

/** The `/works/{key}` key OpenAlex resolves the work by (arXiv papers through their DataCite DOI). */
export function openalexKey(ref: WorkRef): string {
  switch (ref.kind) {
    case "openalex":
      return ref.id;
    case "arxiv":
      return `doi:10.48550/arXiv.${stripVersion(ref.id)}`;
    default:
      return `${ref.kind}:${ref.id}`;
  }
}

/** "PMID 9500320", "DOI 10.1/x", "arXiv 2104.12255", "W2741809807": how a text block names the id. */
export function refLabel(ref: WorkRef): string {
  const prefix = { pmid: "PMID ", pmcid: "", doi: "DOI ", arxiv: "arXiv ", openalex: "" }[ref.kind];
  return `${prefix}${ref.id}`;
}
