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
