/**
 * ELink XML → links per LinkSetDb. Scores (cmd=neighbor_score) are kept as numbers; ids stay strings.
 * An `<ERROR>` in a LinkSet or at the root throws; `<Info>Empty result</Info>` is simply no links.
 */
import { ToolError } from "../../../core/errors.ts";
import { eutilsRoot } from "./root.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "./xml.ts";

export interface ELinkLink {
  id: string;
  score?: number;
}

export interface ELinkSet {
  dbFrom: string;
  fromIds: string[];
  /** LinkName → links in NCBI's order. */
  links: Record<string, ELinkLink[]>;
}

export function parseELink(xml: string, url: string): ELinkSet[] {
  const doc = parseNcbiXml(xml, url, ["LinkSet", "LinkSetDb", "Link", "Id"]);
  const root = eutilsRoot(doc, "eLinkResult", "ELink", url);
  const rootError = text(root.ERROR);
  if (rootError) throw elinkError(rootError);
  return asArray(root.LinkSet as XmlNode[]).map((set) => {
    const setError = text(set.ERROR);
    if (setError) throw elinkError(setError);
    const links: Record<string, ELinkLink[]> = {};
    for (const db of asArray(set.LinkSetDb as XmlNode[])) {
      const name = text(db.LinkName) || text(db.DbTo);
      links[name] = asArray(db.Link as XmlNode[]).map((link) => {
        const id = text(asArray(link.Id)[0]);
        const score = text(link.Score);
        return score ? { id, score: Number(score) } : { id };
      });
    }
    const idList = set.IdList as XmlNode | undefined;
    return {
      dbFrom: text(set.DbFrom),
      fromIds: asArray(idList && typeof idList === "object" ? idList.Id : undefined).map(text),
      links,
    };
  });
}

function elinkError(message: string): ToolError {
  if (/invalid|not found|unknown/i.test(message)) {
    return new ToolError("ENTITY_NOT_FOUND", `NCBI ELink: ${message}`, "Check the identifier; search for it first.");
  }
  return new ToolError("UPSTREAM_ERROR", `NCBI ELink: ${message}`, "Retry shortly; NCBI may be degraded.");
}

/**
 * The `linkName` links of the LinkSet about `id`, matched by its IdList, never by position: an answer
 * whose LinkSets all name other ids is an UPSTREAM_ERROR, not their links passed off as `id`'s. A
 * LinkSet without an IdList is taken as the answer for the one id asked for.
 * @example linksFor(parseELink(body, url), "9298984", "pubmed_pubmed")
 */
export function linksFor(sets: ELinkSet[], id: string, linkName: string): ELinkLink[] {
  const mine = sets.filter((set) => set.fromIds.length === 0 || set.fromIds.includes(id));
  if (mine.length === 0 && sets.length > 0) {
    const others = [...new Set(sets.flatMap((set) => set.fromIds))].join(", ");
    throw new ToolError(
      "UPSTREAM_ERROR",
      `NCBI ELink answered for id ${others}, not for ${id}.`,
      "Retry shortly; if it persists, NCBI may be serving a stale answer.",
    );
  }
  return mine.flatMap((set) => set.links[linkName] ?? []);
}
