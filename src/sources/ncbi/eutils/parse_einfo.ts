/**
 * EInfo db=<name> → database statistics: record count, last update, searchable fields and link names.
 * Counts can exceed 2^31 (protein); they stay exact as JavaScript numbers up to 2^53.
 */
import { ToolError } from "../../../core/errors.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "./xml.ts";

export interface EInfoField {
  name: string;
  fullName: string;
  description: string;
  isDate: boolean;
  isNumerical: boolean;
  isHidden: boolean;
}

export interface EInfoLink {
  name: string;
  menu: string;
  description: string;
  dbTo: string;
}

export interface EInfoDb {
  dbName: string;
  menuName: string;
  description: string;
  dbBuild?: string;
  count: number;
  lastUpdate: string;
  fields: EInfoField[];
  links: EInfoLink[];
}

export function parseEInfo(xml: string, url: string): EInfoDb {
  const doc = parseNcbiXml(xml, url, ["Field", "Link"]);
  const root = doc.eInfoResult as XmlNode | undefined;
  const fatal = root && typeof root === "object" ? text(root.ERROR).trim() : "";
  if (fatal) {
    throw new ToolError("UPSTREAM_ERROR", `NCBI EInfo failed: ${fatal}`, "Retry shortly; NCBI may be degraded.");
  }
  const info = root && typeof root === "object" ? root.DbInfo as XmlNode | undefined : undefined;
  if (!info || typeof info !== "object") {
    throw new ToolError(
      "UPSTREAM_ERROR",
      `NCBI EInfo answered without a DbInfo (${url})`,
      "Retry shortly; NCBI may be degraded.",
    );
  }
  const fieldList = info.FieldList as XmlNode | undefined;
  const linkList = info.LinkList as XmlNode | undefined;
  const out: EInfoDb = {
    dbName: text(info.DbName),
    menuName: text(info.MenuName),
    description: text(info.Description),
    count: Number.parseInt(text(info.Count), 10) || 0,
    lastUpdate: text(info.LastUpdate),
    fields: asArray(fieldList && typeof fieldList === "object" ? fieldList.Field as XmlNode[] : undefined).map((f) => ({
      name: text(f.Name),
      fullName: text(f.FullName),
      description: text(f.Description),
      isDate: text(f.IsDate) === "Y",
      isNumerical: text(f.IsNumerical) === "Y",
      isHidden: text(f.IsHidden) === "Y",
    })),
    links: asArray(linkList && typeof linkList === "object" ? linkList.Link as XmlNode[] : undefined).map((l) => ({
      name: text(l.Name),
      menu: text(l.Menu),
      description: text(l.Description),
      dbTo: text(l.DbTo),
    })),
  };
  const build = text(info.DbBuild);
  if (build) out.dbBuild = build;
  return out;
}
