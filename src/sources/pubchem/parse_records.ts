/**
 * Whole-record answers: a substance (`{"PC_Substances":[…]}`) and an assay summary
 * (`{"AssaySummaries":{"AssaySummary":[…]}}`). Only what the tools report is read; the rest of these
 * large records (atoms, bonds, protocols) is ignored. Each is checked against its schema (shapes.ts): one that
 * differs is read as far as it can be, with a warning on the record.
 */
import { isObject, type JsonObject, malformed, parsePugJson, stringList, toInt } from "./pug_json.ts";
import type { AssaySummaryRecord, AssayTarget, SubstanceRecord } from "./types.ts";
import { ASSAY_SUMMARY, shapeWarning, SUBSTANCE } from "./shapes.ts";

export function parseSubstanceRecord(text: string, url: string): SubstanceRecord {
  const doc = parsePugJson(text, url);
  const record = Array.isArray(doc.PC_Substances) ? doc.PC_Substances.find(isObject) : undefined;
  if (!record) throw malformed(url, "no PC_Substances record");
  const warning = shapeWarning(SUBSTANCE, record, "PubChem substance record");
  const sid = isObject(record.sid) ? toInt(record.sid.id) : undefined;
  if (sid === undefined) throw malformed(url, "a substance record without an SID");
  const db = isObject(record.source) && isObject(record.source.db) ? record.source.db : {};
  const sourceId = isObject(db.source_id) ? db.source_id.str ?? db.source_id.id : db.source_id;
  const standardizedCids: number[] = [];
  for (const compound of Array.isArray(record.compound) ? record.compound : []) {
    if (!isObject(compound) || !isObject(compound.id) || compound.id.type !== "standardized") continue;
    const cid = isObject(compound.id.id) ? toInt(compound.id.id.cid) : undefined;
    if (cid !== undefined && cid > 0 && !standardizedCids.includes(cid)) standardizedCids.push(cid);
  }
  return {
    sid,
    sourceName: typeof db.name === "string" ? db.name : "",
    ...(typeof sourceId === "string" || typeof sourceId === "number" ? { sourceId: String(sourceId) } : {}),
    synonyms: stringList(record.synonyms),
    standardizedCids,
    ...(warning ? { warnings: [warning] } : {}),
  };
}

export function parseAssaySummary(text: string, url: string, aid: number): AssaySummaryRecord {
  const doc = parsePugJson(text, url);
  const list = isObject(doc.AssaySummaries) ? doc.AssaySummaries.AssaySummary : undefined;
  const entries = Array.isArray(list) ? list.filter(isObject) : [];
  const entry = entries.find((e) => toInt(e.AID) === aid) ?? (entries.length === 1 ? entries[0] : undefined);
  if (!entry) throw malformed(url, "no AssaySummary");
  const warning = shapeWarning(ASSAY_SUMMARY, entry, `PubChem assay summary of AID ${aid}`);
  const numCids = toInt(entry.CIDCountAll);
  const numActiveCids = toInt(entry.CIDCountActive);
  return {
    aid: toInt(entry.AID) ?? aid,
    name: typeof entry.Name === "string" ? entry.Name : "",
    description: textOf(entry.Description),
    sourceName: typeof entry.SourceName === "string" ? entry.SourceName : "",
    ...(typeof entry.Method === "string" ? { method: entry.Method } : {}),
    numSids: toInt(entry.SIDCountAll) ?? 0,
    numActive: toInt(entry.SIDCountActive) ?? 0,
    ...(numCids === undefined ? {} : { numCids }),
    ...(numActiveCids === undefined ? {} : { numActiveCids }),
    targets: (Array.isArray(entry.Target) ? entry.Target : []).filter(isObject).map(readTarget),
    ...(warning ? { warnings: [warning] } : {}),
  };
}

/** Description arrives as a list of paragraphs (or, in some records, one string). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value.trim();
  return stringList(value).map((s) => s.trim()).filter(Boolean).join("\n");
}

function readTarget(raw: JsonObject): AssayTarget {
  const geneId = toInt(raw.GeneID);
  const name = [raw.Name, raw.ProteinName, raw.GeneSymbol, raw.Accession].find((v) => typeof v === "string");
  return {
    name: (name as string | undefined) ?? "",
    ...(typeof raw.Accession === "string" ? { accession: raw.Accession } : {}),
    ...(geneId === undefined ? {} : { geneId }),
    ...(typeof raw.GeneSymbol === "string" ? { geneSymbol: raw.GeneSymbol } : {}),
  };
}
