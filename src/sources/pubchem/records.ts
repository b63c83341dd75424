/**
 * Substance and assay requests. Each tool result needs two PUG REST answers; both are requested at
 * once (the pipeline paces them) and cached for a long time, since deposited records rarely change.
 */
import { ToolError } from "../../core/errors.ts";
import { placeIdentifier, type PubChemContext, pugRequest, TTL } from "./client.ts";
import { parseIdentifierAnswer } from "./parse_identifiers.ts";
import { parseAssayTargets, parseDates } from "./parse_information.ts";
import { parseAssaySummary, parseSubstanceRecord } from "./parse_records.ts";
import type { AssaySummaryRecord, AssayTarget, AssayTargetLists, RecordDates, SubstanceRecord } from "./types.ts";

export async function fetchSubstance(
  ctx: PubChemContext,
  sid: number,
): Promise<SubstanceRecord & { dates: RecordDates }> {
  const fault = {
    notFound: `No PubChem substance with SID ${sid}`,
    notFoundHint: "Check the SID; substance ids (SIDs) differ from compound ids (CIDs) — for a CID use " +
      "fetch_compound_properties.",
    field: "sid",
    value: sid,
  };
  const [record, dates] = await Promise.all([
    pugRequest(ctx, { path: `/pug/substance/sid/${sid}/JSON`, ttlMs: TTL.record }, fault),
    pugRequest(ctx, {
      path: `/pug/substance/sid/${sid}/dates/JSON`,
      query: { dates_type: "deposition,modification" },
      ttlMs: TTL.record,
    }, fault),
  ]);
  return { ...parseSubstanceRecord(record.text, record.url), dates: parseDates(dates.text, dates.url, sid) };
}

export async function fetchAssaySummary(ctx: PubChemContext, aid: number): Promise<AssaySummaryRecord> {
  const fault = {
    notFound: `No PubChem BioAssay with AID ${aid}`,
    notFoundHint: "Check the AID; find assays for a gene or protein with search_assays_by_target.",
    field: "aid",
    value: aid,
  };
  const [summary, targets] = await Promise.all([
    pugRequest(ctx, { path: `/pug/assay/aid/${aid}/summary/JSON`, ttlMs: TTL.record }, fault),
    pugRequest(
      ctx,
      { path: `/pug/assay/aid/${aid}/targets/ProteinName,GeneID,GeneSymbol/JSON`, ttlMs: TTL.record },
      fault,
    )
      // Assays without a molecular target (cell-based, phenotypic) have no target record: not an error.
      .catch((error) => {
        if (error instanceof ToolError && error.code === "ENTITY_NOT_FOUND") return undefined;
        throw error;
      }),
  ]);
  const record = parseAssaySummary(summary.text, summary.url, aid);
  if (!targets) return record;
  return { ...record, targets: mergeTargets(record.targets, parseAssayTargets(targets.text, targets.url, aid)) };
}

/**
 * The summary lists targets by name/accession; the targets operation gives gene ids and symbols as
 * parallel lists. They are paired only when the lists line up, never guessed.
 */
export function mergeTargets(summary: AssayTarget[], lists: AssayTargetLists): AssayTarget[] {
  const { proteinNames, geneIds, geneSymbols } = lists;
  const n = proteinNames.length || geneSymbols.length;
  const aligned = n > 0 && [proteinNames, geneIds, geneSymbols].every((l) => l.length === 0 || l.length === n);
  if (!aligned) return summary;
  return Array.from({ length: n }, (_, i) => {
    const name = proteinNames[i] ?? summary[i]?.name ?? geneSymbols[i] ?? "";
    const accession = summary.find((t) => t.name.toLowerCase() === name.toLowerCase())?.accession;
    return {
      name,
      ...(accession ? { accession } : {}),
      ...(geneIds[i] === undefined ? {} : { geneId: geneIds[i] }),
      ...(geneSymbols[i] === undefined ? {} : { geneSymbol: geneSymbols[i] }),
    };
  });
}

export type TargetType = "genesymbol" | "proteinname";

/** AIDs of assays run against a gene symbol or protein name, in PubChem's (ascending AID) order. */
export async function searchAssaysByTarget(ctx: PubChemContext, type: TargetType, query: string): Promise<number[]> {
  const request = placeIdentifier(`/pug/assay/target/${type}`, type, query, "/aids/JSON");
  const answer = await pugRequest(ctx, { ...request, ttlMs: TTL.lookup }, {
    notFound: `No PubChem assay targets ${type === "genesymbol" ? "gene symbol" : "protein name"} '${query}'`,
    notFoundHint: type === "genesymbol"
      ? "Use the official HGNC symbol (e.g. 'EGFR'), or try targetType 'proteinname'."
      : "Try the official protein name or the gene symbol (targetType 'genesymbol').",
    field: "targetQuery",
    value: query,
  });
  const parsed = parseIdentifierAnswer(answer.text, answer.url, "AID");
  return parsed.kind === "ids" ? parsed.ids : [];
}
