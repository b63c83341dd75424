/**
 * PUG-View "GHS Classification" → hazard records. PUG-View sends a Record whose sections hold Information
 * items (Pictogram(s), Signal, GHS Hazard Statements, Precautionary Statement Codes), each tagged with a
 * ReferenceNumber that points into Record.Reference (the depositing source). One source's items form one
 * classification; sources often disagree, so each is kept and the summary says which source said what.
 */
import { isObject, type JsonObject, malformed, parsePugJson, toInt, toNumber } from "./pug_json.ts";

export type SignalWord = "Danger" | "Warning";

export interface Pictogram {
  /** GHS01 … GHS09. */
  code: string;
  /** PubChem's label, e.g. "Flammable". */
  name: string;
}

export interface HazardStatement {
  /** e.g. "H314", "H302+H312", "EUH014". */
  code: string;
  text: string;
  /** Hazard class and category as the source gives it, e.g. "Skin corrosion/irritation". */
  hazardClass?: string;
  /** Share of ECHA C&L notifiers reporting this statement, when the source is an ECHA aggregate. */
  percent?: number;
}

export interface GhsClassification {
  /** Reference.SourceName, e.g. "European Chemicals Agency (ECHA)". */
  source: string;
  /** Reference.Name: the source's own record name, which tells two records of one source apart. */
  record?: string;
  url?: string;
  signalWord?: SignalWord;
  pictograms: Pictogram[];
  hazardStatements: HazardStatement[];
  precautionaryCodes: string[];
}

export interface GhsRecord {
  cid: number;
  name?: string;
  classifications: GhsClassification[];
}

const HAZARD = /^((?:EU)?H\d{3}[A-Za-z]*(?:\s*\+\s*(?:EU)?H\d{3}[A-Za-z]*)*)\s*(?:\((\d+(?:\.\d+)?)%\))?\s*:\s*(.+)$/;
const CLASS_SUFFIX = /\s*\[(?:(?:Danger|Warning)\s+)?([^\]]+)\]\s*$/;
const P_CODE = /^P\d{3}(?:\+P\d{3})*$/;

/** Parses a PUG-View JSON answer for one compound; a record without GHS data gives no classifications. */
export function parseGhs(text: string, url: string, cid: number): GhsRecord {
  const doc = parsePugJson(text, url);
  if (!isObject(doc.Record)) throw malformed(url, "a PUG-View answer without a Record");
  const record = doc.Record;
  const references = new Map<number, JsonObject>();
  for (const ref of Array.isArray(record.Reference) ? record.Reference.filter(isObject) : []) {
    const n = toInt(ref.ReferenceNumber);
    if (n !== undefined) references.set(n, ref);
  }
  const bySource = new Map<number, GhsClassification>();
  for (const info of ghsInformation(record)) {
    const ref = toInt(info.ReferenceNumber) ?? -1;
    let entry = bySource.get(ref);
    if (!entry) {
      entry = newClassification(references.get(ref));
      bySource.set(ref, entry);
    }
    addInformation(entry, info);
  }
  const classifications = [...bySource.values()].filter((c) =>
    c.pictograms.length || c.signalWord || c.hazardStatements.length || c.precautionaryCodes.length
  );
  return {
    cid: toInt(record.RecordNumber) ?? cid,
    ...(typeof record.RecordTitle === "string" ? { name: record.RecordTitle } : {}),
    classifications,
  };
}

/** Information items of every section headed "GHS Classification", at any depth. */
function ghsInformation(node: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  for (const section of Array.isArray(node.Section) ? node.Section.filter(isObject) : []) {
    if (section.TOCHeading === "GHS Classification" && Array.isArray(section.Information)) {
      out.push(...section.Information.filter(isObject));
    }
    out.push(...ghsInformation(section));
  }
  return out;
}

function newClassification(ref: JsonObject | undefined): GhsClassification {
  const str = (v: unknown) => typeof v === "string" && v.trim() ? v.trim() : undefined;
  const record = str(ref?.Name);
  const url = str(ref?.URL);
  return {
    source: str(ref?.SourceName) ?? "unnamed source",
    ...(record ? { record } : {}),
    ...(url ? { url } : {}),
    pictograms: [],
    hazardStatements: [],
    precautionaryCodes: [],
  };
}

function addInformation(entry: GhsClassification, info: JsonObject): void {
  const strings = markupStrings(info.Value);
  switch (info.Name) {
    case "Pictogram(s)":
      for (const icon of strings.flatMap((s) => s.markup)) {
        const code = typeof icon.URL === "string" ? /(GHS\d{2})\.svg$/.exec(icon.URL)?.[1] : undefined;
        if (icon.Type === "Icon" && code && !entry.pictograms.some((p) => p.code === code)) {
          entry.pictograms.push({ code, name: typeof icon.Extra === "string" ? icon.Extra : code });
        }
      }
      break;
    case "Signal": {
      const word = strings.map((s) => s.text.trim()).find((t) => t === "Danger" || t === "Warning");
      if (word) entry.signalWord = word as SignalWord;
      break;
    }
    case "GHS Hazard Statements":
      for (const { text } of strings) {
        const statement = parseHazard(text);
        if (statement && !entry.hazardStatements.some((h) => h.code === statement.code)) {
          entry.hazardStatements.push(statement);
        }
      }
      break;
    case "Precautionary Statement Codes":
      for (const { text } of strings) {
        for (const code of text.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).map((c) => c.replace(/\s+/g, ""))) {
          if (P_CODE.test(code) && !entry.precautionaryCodes.includes(code)) entry.precautionaryCodes.push(code);
        }
      }
      break;
  }
}

/** `H226 (99.72%): Flammable liquid and vapor [Warning Flammable liquids]` → its parts. */
export function parseHazard(line: string): HazardStatement | undefined {
  const match = HAZARD.exec(line.trim());
  if (!match) return undefined;
  const [, code, percent, rest] = match;
  const klass = CLASS_SUFFIX.exec(rest);
  const statement: HazardStatement = {
    code: code.replace(/\s+/g, ""),
    text: (klass ? rest.slice(0, klass.index) : rest).trim(),
  };
  if (klass) statement.hazardClass = klass[1].trim();
  const share = toNumber(percent);
  if (share !== undefined) statement.percent = share;
  return statement;
}

function markupStrings(value: unknown): { text: string; markup: JsonObject[] }[] {
  if (!isObject(value) || !Array.isArray(value.StringWithMarkup)) return [];
  return value.StringWithMarkup.filter(isObject).map((s) => ({
    text: typeof s.String === "string" ? s.String : "",
    markup: Array.isArray(s.Markup) ? s.Markup.filter(isObject) : [],
  }));
}
