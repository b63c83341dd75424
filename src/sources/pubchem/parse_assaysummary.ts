/**
 * `compound/cid/<cid>/assaysummary/JSON` → one row per tested substance and assay (panel assays give one row
 * per panel member). PubChem sends a table: `Table.Columns.Column` names the columns, each `Row.Cell` holds
 * the values in that order, empty cells as "". Columns are looked up by name, so a reordered or extended
 * table still parses; cells may arrive as strings or numbers. A row that differs from {@link ASSAY_TABLE_ROW}
 * is read as far as it can be and named in `warnings`.
 */
import { isObject, malformed, parsePugJson, toInt, toNumber } from "./pug_json.ts";
import { ASSAY_TABLE_ROW, shapeWarning } from "./shapes.ts";

export type Outcome = "active" | "inactive" | "inconclusive" | "unspecified";

export interface AssayRow {
  aid: number;
  sid?: number;
  outcome: Outcome;
  targetAccession?: string;
  targetGeneId?: number;
  /** Activity value in µM ("Activity Value [uM]"). */
  activityValue?: number;
  /** e.g. IC50, Ki, Potency. */
  activityName?: string;
  assayName?: string;
  assayType?: string;
  pubmedId?: number;
}

export function parseAssaySummaryTable(text: string, url: string, warnings: string[] = []): AssayRow[] {
  const doc = parsePugJson(text, url);
  const table = doc.Table;
  if (!isObject(table) || !isObject(table.Columns) || !Array.isArray(table.Columns.Column)) {
    throw malformed(url, "an assay summary without Table.Columns");
  }
  const columns = table.Columns.Column.map(String);
  const at = (name: string) => columns.indexOf(name);
  const index = {
    aid: at("AID"),
    sid: at("SID"),
    outcome: at("Activity Outcome"),
    accession: at("Target Accession"),
    geneId: at("Target GeneID"),
    value: at("Activity Value [uM]"),
    activity: at("Activity Name"),
    name: at("Assay Name"),
    type: at("Assay Type"),
    pmid: at("PubMed ID"),
  };
  if (index.aid < 0 || index.outcome < 0) throw malformed(url, "an assay summary without AID or outcome columns");
  const rows: AssayRow[] = [];
  for (const [n, row] of (Array.isArray(table.Row) ? table.Row : []).entries()) {
    const cells: unknown[] = isObject(row) && Array.isArray(row.Cell) ? row.Cell : [];
    const cell = (i: number) => (i < 0 ? undefined : cells[i]);
    const warning = shapeWarning(ASSAY_TABLE_ROW, row, `PubChem assay-summary row ${n + 1}`);
    if (warning) warnings.push(warning);
    const text = (i: number) => {
      const v = cell(i);
      return (typeof v === "string" && v.trim()) ? v.trim() : typeof v === "number" ? String(v) : undefined;
    };
    const aid = toInt(cell(index.aid));
    if (aid === undefined) continue;
    const out: AssayRow = { aid, outcome: toOutcome(text(index.outcome)) };
    const sid = toInt(cell(index.sid));
    const accession = text(index.accession);
    const geneId = toInt(cell(index.geneId));
    const value = toNumber(cell(index.value));
    const activity = text(index.activity);
    const name = text(index.name);
    const type = text(index.type);
    const pmid = toInt(cell(index.pmid));
    if (sid !== undefined) out.sid = sid;
    if (accession) out.targetAccession = accession;
    if (geneId !== undefined) out.targetGeneId = geneId;
    if (value !== undefined) out.activityValue = value;
    if (activity) out.activityName = activity;
    if (name) out.assayName = name;
    if (type) out.assayType = type;
    if (pmid !== undefined) out.pubmedId = pmid;
    rows.push(out);
  }
  return rows;
}

/** PubChem's outcome labels; the retired "Probe" outcome marked an active probe compound. */
function toOutcome(label: string | undefined): Outcome {
  switch (label?.toLowerCase()) {
    case "active":
    case "probe":
      return "active";
    case "inactive":
      return "inactive";
    case "inconclusive":
      return "inconclusive";
    default:
      return "unspecified";
  }
}

export interface GeneName {
  geneId: number;
  symbol?: string;
  name?: string;
}

/** `gene/geneid/<ids>/summary/JSON` → symbol and name per gene id. */
export function parseGeneSummaries(text: string, url: string): GeneName[] {
  const doc = parsePugJson(text, url);
  const list = isObject(doc.GeneSummaries) ? doc.GeneSummaries.GeneSummary : undefined;
  if (!Array.isArray(list)) throw malformed(url, "no GeneSummaries");
  const out: GeneName[] = [];
  for (const g of list.filter(isObject)) {
    const geneId = toInt(g.GeneID);
    if (geneId === undefined) continue;
    out.push({
      geneId,
      ...(typeof g.Symbol === "string" && g.Symbol ? { symbol: g.Symbol } : {}),
      ...(typeof g.Name === "string" && g.Name ? { name: g.Name } : {}),
    });
  }
  return out;
}
