/**
 * `{"PropertyTable":{"Properties":[…]}}` → typed rows. Two PubChem quirks are absorbed here:
 * masses arrive as strings (`"180.16"`) and become numbers; and the 2025 renaming of the SMILES
 * properties (`SMILES` = old `IsomericSMILES`, `ConnectivitySMILES` = old `CanonicalSMILES`) is
 * bridged both ways, so a caller gets the names it asked for from an old or a new response. Each row is
 * checked against {@link PROPERTY_ROW}: one that differs is kept as far as it reads, with a warning.
 */
import { isObject, malformed, parsePugJson, toInt, toNumber } from "./pug_json.ts";
import { PROPERTY_ROW, shapeWarning } from "./shapes.ts";
import { COMPOUND_PROPERTIES, type CompoundProperties, type CompoundProperty, PROPERTY_KINDS } from "./types.ts";

/** Where each property may appear in a response, current name first. */
const RESPONSE_KEYS: Partial<Record<CompoundProperty, string[]>> = {
  SMILES: ["SMILES", "IsomericSMILES"],
  IsomericSMILES: ["SMILES", "IsomericSMILES"],
  ConnectivitySMILES: ["ConnectivitySMILES", "CanonicalSMILES"],
  CanonicalSMILES: ["ConnectivitySMILES", "CanonicalSMILES"],
};

/** The names to send: current PubChem names, de-duplicated, in catalogue order (stable cache keys). */
export function upstreamPropertyNames(requested: readonly CompoundProperty[]): string[] {
  const names = new Set(requested.map((p) => RESPONSE_KEYS[p]?.[0] ?? p));
  return COMPOUND_PROPERTIES.filter((p) => names.has(p));
}

export function parsePropertyTable(
  text: string,
  url: string,
  requested: readonly CompoundProperty[],
  warnings: string[] = [],
): CompoundProperties[] {
  const doc = parsePugJson(text, url);
  const table = doc.PropertyTable;
  if (!isObject(table) || !Array.isArray(table.Properties)) throw malformed(url, "no PropertyTable");
  const rows: CompoundProperties[] = [];
  for (const [i, raw] of table.Properties.entries()) {
    const cid = isObject(raw) ? toInt(raw.CID) : undefined;
    const warning = shapeWarning(PROPERTY_ROW, raw, `PubChem property row ${i + 1}${cid ? ` (CID ${cid})` : ""}`);
    if (warning) warnings.push(warning);
    // A row without a readable CID cannot be matched to a compound: the warning keeps it as sent.
    if (!isObject(raw) || cid === undefined || cid <= 0) continue;
    const row: CompoundProperties = { CID: cid };
    for (const property of requested) {
      const value = readProperty(raw, property);
      if (value !== undefined) (row as Record<string, string | number>)[property] = value;
    }
    rows.push(row);
  }
  return rows;
}

function readProperty(raw: Record<string, unknown>, property: CompoundProperty): string | number | undefined {
  const keys = RESPONSE_KEYS[property] ?? [property];
  const value = keys.map((k) => raw[k]).find((v) => v !== undefined && v !== null && v !== "");
  const kind = PROPERTY_KINDS[property];
  if (kind === "text") return typeof value === "string" ? value : undefined;
  return kind === "float" ? toNumber(value) : toInt(value);
}
