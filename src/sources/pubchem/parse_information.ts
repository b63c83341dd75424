/**
 * `{"InformationList":{"Information":[…]}}` answers: synonyms, cross-references, dates and assay
 * targets all share this envelope, one Information object per requested id.
 */
import { z } from "../../core/zod.ts";
import { intList, isObject, type JsonObject, malformed, parsePugJson, stringList, toInt } from "./pug_json.ts";
import type { AssayTargetLists, RecordDates, XrefType } from "./types.ts";

/** The Information objects of a body, in order. */
function parseInformation(text: string, url: string): JsonObject[] {
  const doc = parsePugJson(text, url);
  const list = doc.InformationList;
  if (!isObject(list) || !Array.isArray(list.Information)) throw malformed(url, "no InformationList");
  return list.Information.filter(isObject);
}

/** The synonyms of one compound (`compound/cid/<cid>/synonyms/JSON`); PubChem's order is kept (best name first). */
export function parseSynonyms(text: string, url: string, cid: number): string[] {
  const entry = findEntry(parseInformation(text, url), "CID", cid);
  return entry ? stringList(entry.Synonym) : [];
}

/**
 * Cross-references of one compound, one list per requested type (empty when PubChem has none).
 * Numeric identifiers (PubMedID, GeneID, ProteinGI, TaxonomyID) stay numbers, as PubChem sends them.
 */
export function parseXrefs(
  text: string,
  url: string,
  cid: number,
  types: readonly XrefType[],
): Record<string, (string | number)[]> {
  const entry = findEntry(parseInformation(text, url), "CID", cid) ?? {};
  const out: Record<string, (string | number)[]> = {};
  for (const type of types) {
    const values = XREF_LIST.safeParse(entry[type] ?? []);
    if (!values.success) throw malformed(url, `cross-references whose ${type} is not a list of identifiers`);
    out[type] = values.data;
  }
  return out;
}

/** One xref type's identifiers: strings (CAS numbers, patents) or numbers (PubMed, Gene, Taxonomy ids). */
const XREF_LIST = z.array(z.union([z.string(), z.number()]));

/** `substance/sid/<sid>/dates/JSON?dates_type=deposition,modification` → ISO dates. */
export function parseDates(text: string, url: string, sid: number): RecordDates {
  const entry = findEntry(parseInformation(text, url), "SID", sid) ?? {};
  const dates: RecordDates = {};
  for (const [key, value] of Object.entries(entry)) {
    const iso = isoDate(value);
    if (!iso) continue;
    if (/deposit/i.test(key)) dates.deposition ??= iso;
    else if (/modif/i.test(key)) dates.modification ??= iso;
  }
  return dates;
}

/** `assay/aid/<aid>/targets/ProteinName,GeneID,GeneSymbol/JSON` → the parallel lists. */
export function parseAssayTargets(text: string, url: string, aid: number): AssayTargetLists {
  const entry = findEntry(parseInformation(text, url), "AID", aid) ?? {};
  return {
    proteinNames: stringList(entry.ProteinName),
    geneIds: intList(entry.GeneID),
    geneSymbols: stringList(entry.GeneSymbol),
  };
}

/** The entry for `id`, or the only entry when PubChem left the id out. */
function findEntry(entries: JsonObject[], key: string, id: number): JsonObject | undefined {
  const match = entries.find((e) => toInt(e[key]) === id);
  if (match) return match;
  return entries.length === 1 && entries[0][key] === undefined ? entries[0] : undefined;
}

/** `{Year,Month,Day}`, `20050326`, `"2005-03-26"` or `"2005/03/26"` → `2005-03-26`. */
export function isoDate(value: unknown): string | undefined {
  let y: number | undefined, m: number | undefined, d: number | undefined;
  if (isObject(value)) {
    [y, m, d] = [toInt(value.Year ?? value.year), toInt(value.Month ?? value.month), toInt(value.Day ?? value.day)];
  } else if (typeof value === "number" || (typeof value === "string" && /^\d{8}$/.test(value))) {
    const n = String(value);
    if (!/^\d{8}$/.test(n)) return undefined;
    [y, m, d] = [Number(n.slice(0, 4)), Number(n.slice(4, 6)), Number(n.slice(6, 8))];
  } else if (typeof value === "string") {
    const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})/.exec(value.trim());
    if (!match) return undefined;
    [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  if (!y || !m || !d || m > 12 || d > 31) return undefined;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}
