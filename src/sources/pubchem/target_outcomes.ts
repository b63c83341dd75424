/**
 * A compound's assay outcomes counted per target: for each target (NCBI gene, else protein accession), how
 * many assays (AIDs) found the compound active, inactive, inconclusive or unspecified. An assay counts once
 * per target, with its best outcome over the tested substances (active, then inconclusive, inactive).
 */
import type { PubChemContext } from "./client.ts";
import { fetchAssayRows, geneNames } from "./bioactivity.ts";
import type { AssayRow, Outcome } from "./parse_assaysummary.ts";

const RANK: Record<Outcome, number> = { active: 0, inconclusive: 1, inactive: 2, unspecified: 3 };

export interface TargetOutcomes {
  geneId?: number;
  accession?: string;
  symbol?: string;
  name?: string;
  active: number;
  inactive: number;
  inconclusive: number;
  unspecified: number;
  /** Assays that tested the compound against this target. */
  tested: number;
}

export interface TargetOutcomeSummary {
  /** The `top` targets with the most active assays (then the most tested), gene-named where PubChem can. */
  targets: TargetOutcomes[];
  /** Targets in all (the chart shows `targets`). */
  totalTargets: number;
  /** Assays with a molecular target. */
  targetedAssays: number;
}

export async function fetchTargetOutcomes(
  ctx: PubChemContext,
  cid: number,
  top: number,
): Promise<TargetOutcomeSummary> {
  const summary = countByTarget(await fetchAssayRows(ctx, cid), top);
  const names = await geneNames(ctx, summary.targets.flatMap((t) => t.geneId === undefined ? [] : [t.geneId]));
  for (const target of summary.targets) {
    const gene = target.geneId === undefined ? undefined : names.get(target.geneId);
    if (gene?.symbol) target.symbol = gene.symbol;
    if (gene?.name) target.name = gene.name;
  }
  return summary;
}

/** Rows → outcome counts per target, ranked; pure, so ranking and counting are tested without a network. */
export function countByTarget(rows: AssayRow[], top: number): TargetOutcomeSummary {
  const best = new Map<string, Map<number, Outcome>>();
  const ids = new Map<string, Pick<TargetOutcomes, "geneId" | "accession">>();
  const targeted = new Set<number>();
  for (const row of rows) {
    const key = row.targetGeneId !== undefined
      ? `g${row.targetGeneId}`
      : row.targetAccession && `a${row.targetAccession}`;
    if (!key) continue;
    targeted.add(row.aid);
    if (!ids.has(key)) {
      ids.set(key, {
        ...(row.targetGeneId !== undefined ? { geneId: row.targetGeneId } : {}),
        ...(row.targetAccession ? { accession: row.targetAccession } : {}),
      });
    }
    const outcomes = best.get(key) ?? new Map<number, Outcome>();
    const current = outcomes.get(row.aid);
    if (!current || RANK[row.outcome] < RANK[current]) outcomes.set(row.aid, row.outcome);
    best.set(key, outcomes);
  }
  const targets = [...best].map(([key, outcomes]) => {
    const t: TargetOutcomes = { ...ids.get(key), active: 0, inactive: 0, inconclusive: 0, unspecified: 0, tested: 0 };
    for (const outcome of outcomes.values()) t[outcome]++;
    t.tested = outcomes.size;
    return t;
  }).sort((a, b) =>
    b.active - a.active || b.tested - a.tested || (a.geneId ?? Infinity) - (b.geneId ?? Infinity) ||
    (a.accession ?? "").localeCompare(b.accession ?? "")
  );
  return { targets: targets.slice(0, top), totalTargets: targets.length, targetedAssays: targeted.size };
}
