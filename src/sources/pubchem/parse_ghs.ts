/**
 * PUG-View "GHS Classification" → hazard records. PUG-View sends a Record whose sections hold Information
 * items (Pictogram(s), Signal, GHS Hazard Statements, Precautionary Statement Codes), each tagged with a
 * ReferenceNumber that points into Record.Reference (the depositing source). One source's items form one
 * classification; sources often disagree, so each is kept and the summary says which source said what.
 * Safety data is never dropped: a line no pattern reads is kept as given in `unparsed`.
 */
import { GHS_INFORMATION, shapeWarning } from "./shapes.ts";
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
  /** The share as printed when it is a bound, e.g. "> 99.9%" (then `percent` is 99.9). */
  share?: string;
  /** CLP footnote asterisks after the code, e.g. "**" (route of exposure not excluded), as printed. */
  marks?: string;
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
  /** Lines of this source that no pattern reads, kept verbatim (e.g. "Not Classified"). */
  unparsed: string[];
  /** Other items of the source as `Name: text` (ECHA's notifier summary, hazard classes, notes). */
  notes: string[];
}

export interface GhsRecord {
  cid: number;
  name?: string;
  classifications: GhsClassification[];
  /** GHS items in an unexpected shape (checked against GHS_INFORMATION): read as far as they could be. */
  warnings?: string[];
}

/** A code or combined codes (`H302+H312`, `EUH014`, `H360FD`); CLP asterisks and a notifier share in either
 * order (`H373 **`, `H225 (> 99.9%)`); then the statement after a colon, or after a space when there is none. */
const HAZARD =
  /^((?:EU)?H\d{3}[A-Za-z]{0,3}(?:\s*\+\s*(?:EU)?H\d{3}[A-Za-z]{0,3})*)(?![\w+])\s*(\*{1,4})?\s*(?:\(\s*([<>≤≥~≈]=?)?\s*(\d+(?:\.\d+)?)\s*%\s*\))?\s*(\*{1,4})?\s*(?::\s*|\s+|$)(.*)$/;
const CLASS_SUFFIX = /\s*\[(?:(?:Danger|Warning)\s+)?([^\]]+)\]\s*$/;
const P_CODES = /P\d{3}(?:\s*\+\s*P\d{3})*/g;
/** PubChem's pointer sentence under every P-code list; it carries no data of the source. */
const P_POINTER = /^\(The corresponding statement to each P-code can be found at the GHS Classification page\.\)$/;

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
  const warnings: string[] = [];
  for (const [i, info] of ghsInformation(record).entries()) {
    const warning = shapeWarning(GHS_INFORMATION, info, `PubChem GHS item ${i + 1}`);
    if (warning) warnings.push(warning);
    if (!isObject(info)) continue; // nothing to read: the warning keeps it as sent
    const ref = toInt(info.ReferenceNumber) ?? -1;
    let entry = bySource.get(ref);
    if (!entry) {
      entry = newClassification(references.get(ref));
      bySource.set(ref, entry);
    }
    addInformation(entry, info);
  }
  const classifications = [...bySource.values()].filter((c) =>
    c.pictograms.length || c.signalWord || c.hazardStatements.length || c.precautionaryCodes.length ||
    c.unparsed.length
  );
  return {
    cid: toInt(record.RecordNumber) ?? cid,
    ...(typeof record.RecordTitle === "string" ? { name: record.RecordTitle } : {}),
    classifications,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Information items of every section headed "GHS Classification", at any depth. */
function ghsInformation(node: JsonObject): unknown[] {
  const out: unknown[] = [];
  for (const section of Array.isArray(node.Section) ? node.Section.filter(isObject) : []) {
    if (section.TOCHeading === "GHS Classification" && Array.isArray(section.Information)) {
      out.push(...section.Information);
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
    unparsed: [],
    notes: [],
  };
}

function addInformation(entry: GhsClassification, info: JsonObject): void {
  const strings = markupStrings(info.Value);
  const keepRaw = (text: string) => {
    const line = text.replace(/\s+/g, " ").trim();
    if (line && !entry.unparsed.includes(line)) entry.unparsed.push(line);
  };
  switch (info.Name) {
    case "Pictogram(s)":
      for (const { text, markup } of strings) {
        const icons = markup.filter((m) => m.Type === "Icon");
        for (const icon of icons) addPictogram(entry, icon, keepRaw);
        if (!icons.length) keepRaw(text);
      }
      break;
    case "Signal":
      for (const { text } of strings) {
        const word = text.trim();
        if (word === "Danger" || word === "Warning") {
          if (entry.signalWord !== "Danger") entry.signalWord = word;
        } else keepRaw(word);
      }
      break;
    case "GHS Hazard Statements":
      for (const { text } of strings) {
        const statement = parseHazard(text);
        if (!statement) keepRaw(text);
        else if (!entry.hazardStatements.some((h) => sameStatement(h, statement))) {
          entry.hazardStatements.push(statement);
        }
      }
      break;
    case "Precautionary Statement Codes":
      for (const { text } of strings) {
        if (P_POINTER.test(text.trim())) continue;
        const { codes, rest } = parsePrecautionary(text);
        for (const code of codes) if (!entry.precautionaryCodes.includes(code)) entry.precautionaryCodes.push(code);
        if (rest) keepRaw(text);
      }
      break;
    default:
      for (const { text } of strings) {
        const line = text.replace(/\s+/g, " ").trim();
        if (line) entry.notes.push(typeof info.Name === "string" ? `${info.Name}: ${line}` : line);
      }
  }
}

function addPictogram(entry: GhsClassification, icon: JsonObject, keepRaw: (text: string) => void): void {
  const name = typeof icon.Extra === "string" ? icon.Extra.trim() : undefined;
  const code = typeof icon.URL === "string" ? /(GHS\d{2})\.svg$/i.exec(icon.URL)?.[1]?.toUpperCase() : undefined;
  if (!code) return keepRaw(`pictogram ${name ?? ""} ${typeof icon.URL === "string" ? icon.URL : ""}`);
  if (!entry.pictograms.some((p) => p.code === code)) entry.pictograms.push({ code, name: name || code });
}

function sameStatement(a: HazardStatement, b: HazardStatement): boolean {
  return a.code === b.code && a.text === b.text && a.hazardClass === b.hazardClass && a.percent === b.percent;
}

/** "P210, P233, P301+P330+P331, and P501" → the codes, and whether anything else was left over. */
export function parsePrecautionary(line: string): { codes: string[]; rest: boolean } {
  const codes = [...line.matchAll(P_CODES)].map((m) => m[0].replace(/\s+/g, ""));
  const rest = line.replace(P_CODES, "").replace(/\band\b|[,;.\s]/g, "");
  return { codes, rest: rest.length > 0 };
}

/**
 * One PubChem hazard line → its parts; undefined when the line is no statement (kept raw by the caller).
 * @example parseHazard("H225 (> 99.9%): Highly Flammable liquid and vapor [Danger Flammable liquids]")
 */
export function parseHazard(line: string): HazardStatement | undefined {
  const match = HAZARD.exec(line.replace(/\s+/g, " ").trim());
  if (!match) return undefined;
  const [, code, marksBefore, bound, percent, marksAfter, rest] = match;
  const klass = CLASS_SUFFIX.exec(rest);
  const statement: HazardStatement = {
    code: code.replace(/\s+/g, ""),
    text: (klass ? rest.slice(0, klass.index) : rest).trim(),
  };
  if (klass) statement.hazardClass = klass[1].trim();
  const share = toNumber(percent);
  if (share !== undefined) statement.percent = share;
  if (bound) statement.share = `${bound} ${percent}%`;
  const marks = marksBefore ?? marksAfter;
  if (marks) statement.marks = marks;
  return statement;
}

function markupStrings(value: unknown): { text: string; markup: JsonObject[] }[] {
  if (!isObject(value) || !Array.isArray(value.StringWithMarkup)) return [];
  return value.StringWithMarkup.filter(isObject).map((s) => ({
    text: typeof s.String === "string" ? s.String : "",
    markup: Array.isArray(s.Markup) ? s.Markup.filter(isObject) : [],
  }));
}
