/**
 * A compound's bioassay outcomes (PUG REST assaysummary), condensed per assay: one outcome per AID (active
 * if any tested substance was active, then inconclusive, inactive, unspecified), counts over all assays,
 * and the targets it was most often active against, named through PubChem's gene summaries.
 */
import { ToolError } from "../../core/errors.ts";
import { type PubChemContext, pugRequest, TTL } from "./client.ts";
import {
  type AssayRow,
  type GeneName,
  type Outcome,
  parseAssaySummaryTable,
  parseGeneSummaries,
} from "./parse_assaysummary.ts";

const RANK: Record<Outcome, number> = { active: 0, inconclusive: 1, inactive: 2, unspecified: 3 };
export const TOP_TARGETS = 10;

export interface AssayOutcome {
  aid: number;
  outcome: Outcome;
  name?: string;
  type?: string;
  targetGeneId?: number;
  targetAccession?: string;
  activityName?: string;
  activityValue?: number;
  pubmedId?: number;
}

export interface TargetActivity {
  geneId?: number;
  accession?: string;
  symbol?: string;
  name?: string;
  /** Assays (AIDs) in which the compound was active against this target. */
  activeAssays: number;
  testedAssays: number;
}

export interface Bioactivity {
  counts: Record<Outcome, number>;
  /** Every assay, active first, then by AID. */
  assays: AssayOutcome[];
  topTargets: TargetActivity[];
  /** Rows PubChem sent in an unexpected shape (read as far as they could be). */
  warnings?: string[];
}

export async function fetchBioactivity(ctx: PubChemContext, cid: number): Promise<Bioactivity> {
  const warnings: string[] = [];
  const summary = condense(await fetchAssayRows(ctx, cid, warnings));
  if (warnings.length) summary.warnings = warnings;
  const names = await geneNames(ctx, summary.topTargets.flatMap((t) => t.geneId === undefined ? [] : [t.geneId]));
  for (const target of summary.topTargets) {
    const gene = target.geneId === undefined ? undefined : names.get(target.geneId);
    if (gene?.symbol) target.symbol = gene.symbol;
    if (gene?.name) target.name = gene.name;
  }
  return summary;
}

/** Every row of a compound's assay summary (one per tested substance and assay); cached per CID. */
export async function fetchAssayRows(ctx: PubChemContext, cid: number, warnings: string[] = []): Promise<AssayRow[]> {
  const answer = await pugRequest(ctx, { path: `/pug/compound/cid/${cid}/assaysummary/JSON`, ttlMs: TTL.lookup }, {
    notFound: `PubChem has no bioassay results for CID ${cid}`,
    notFoundHint: "The compound was not tested in any deposited assay, or the CID does not exist: check it with " +
      "fetch_compound_properties. Find assays by target with search_assays_by_target.",
    field: "cid",
    value: cid,
  });
  return parseAssaySummaryTable(answer.text, answer.url, warnings);
}

/** Rows → one outcome per assay, counts and the top targets (ranked by active assays, then tested). */
export function condense(rows: AssayRow[]): Bioactivity {
  const byAid = new Map<number, AssayOutcome>();
  const targetsOfAid = new Map<number, Set<string>>();
  const targets = new Map<string, { t: TargetActivity; tested: Set<number>; active: Set<number> }>();
  for (const row of rows) {
    const current = byAid.get(row.aid);
    if (!current || RANK[row.outcome] < RANK[current.outcome]) byAid.set(row.aid, outcomeOf(row, current));
    const key = row.targetGeneId !== undefined
      ? `g${row.targetGeneId}`
      : row.targetAccession && `a${row.targetAccession}`;
    if (!key) continue;
    targetsOfAid.set(row.aid, (targetsOfAid.get(row.aid) ?? new Set()).add(key));
    let entry = targets.get(key);
    if (!entry) {
      const t: TargetActivity = { activeAssays: 0, testedAssays: 0 };
      if (row.targetGeneId !== undefined) t.geneId = row.targetGeneId;
      if (row.targetAccession) t.accession = row.targetAccession;
      entry = { t, tested: new Set(), active: new Set() };
      targets.set(key, entry);
    }
    entry.tested.add(row.aid);
    if (row.outcome === "active") entry.active.add(row.aid);
  }
  // A panel assay tests several targets: its entry names none (the top targets count each of them).
  for (const [aid, keys] of targetsOfAid) {
    if (keys.size < 2) continue;
    const assay = byAid.get(aid)!;
    delete assay.targetGeneId;
    delete assay.targetAccession;
  }
  const assays = [...byAid.values()].sort((a, b) => RANK[a.outcome] - RANK[b.outcome] || a.aid - b.aid);
  const counts: Record<Outcome, number> = { active: 0, inactive: 0, inconclusive: 0, unspecified: 0 };
  for (const a of assays) counts[a.outcome]++;
  const topTargets = [...targets.values()]
    .map(({ t, tested, active }) => ({ ...t, activeAssays: active.size, testedAssays: tested.size }))
    .sort((a, b) =>
      b.activeAssays - a.activeAssays || b.testedAssays - a.testedAssays || (a.geneId ?? 0) - (b.geneId ?? 0)
    )
    .slice(0, TOP_TARGETS);
  return { counts, assays, topTargets };
}

/** The row that decides an assay's outcome supplies its details; the assay name survives from any row. */
function outcomeOf(row: AssayRow, previous: AssayOutcome | undefined): AssayOutcome {
  const out: AssayOutcome = { aid: row.aid, outcome: row.outcome };
  const name = row.assayName ?? previous?.name;
  const type = row.assayType ?? previous?.type;
  if (name) out.name = name;
  if (type) out.type = type;
  if (row.targetGeneId !== undefined) out.targetGeneId = row.targetGeneId;
  if (row.targetAccession) out.targetAccession = row.targetAccession;
  if (row.activityName) out.activityName = row.activityName;
  if (row.activityValue !== undefined) out.activityValue = row.activityValue;
  if (row.pubmedId !== undefined) out.pubmedId = row.pubmedId;
  return out;
}

/** Symbols and names of target genes; a gene PubChem does not know stays unnamed (never an error). */
export async function geneNames(ctx: PubChemContext, ids: number[]): Promise<Map<number, GeneName>> {
  if (ids.length === 0) return new Map();
  const answer = await pugRequest(ctx, { path: `/pug/gene/geneid/${ids.join(",")}/summary/JSON`, ttlMs: TTL.record }, {
    notFound: "PubChem has no summary for these genes",
    notFoundHint: "Look the gene ids up with get_gene.",
    field: "cid",
  }).catch((error) => {
    if (error instanceof ToolError && error.code === "ENTITY_NOT_FOUND") return undefined;
    throw error;
  });
  if (!answer) return new Map();
  return new Map(parseGeneSummaries(answer.text, answer.url).map((g) => [g.geneId, g]));
}
