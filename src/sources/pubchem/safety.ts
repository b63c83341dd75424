/**
 * GHS hazard data of a compound from PUG-View (`data/compound/<cid>/JSON?heading=GHS+Classification`), and
 * the summary across sources: the strictest signal word, every pictogram, and each hazard statement once
 * with the sources that give it.
 */
import { ToolError } from "../../core/errors.ts";
import { type PubChemContext, pugRequest, TTL } from "./client.ts";
import { type GhsClassification, type GhsRecord, parseGhs, type Pictogram, type SignalWord } from "./parse_ghs.ts";

export const GHS_HEADING = "GHS Classification";

const NO_GHS_HINT = "PubChem has no GHS classification for this CID, or the CID does not exist; no data is not a " +
  "sign of safety. Check the CID with fetch_compound_properties; for mixtures try the parent compound's CID.";

export async function fetchGhs(ctx: PubChemContext, cid: number): Promise<GhsRecord> {
  const answer = await pugRequest(ctx, {
    path: `/pug_view/data/compound/${cid}/JSON`,
    query: { heading: GHS_HEADING },
    ttlMs: TTL.record,
  }, {
    notFound: `PubChem has no GHS classification for CID ${cid}`,
    notFoundHint: NO_GHS_HINT,
    field: "cid",
    value: cid,
  });
  const record = parseGhs(answer.text, answer.url, cid);
  if (record.classifications.length === 0) {
    throw new ToolError(
      "ENTITY_NOT_FOUND",
      `PubChem's record of CID ${cid} carries no GHS classification`,
      NO_GHS_HINT,
    );
  }
  return record;
}

export interface MergedHazard {
  code: string;
  text: string;
  hazardClass?: string;
  /** Distinct source names that give this statement, in record order. */
  sources: string[];
  /** Highest ECHA notifier share reported for it, when any source gives one. */
  percent?: number;
  /** That share as printed when it is a bound ("> 99.9%"). */
  share?: string;
  /** CLP asterisks any source prints after the code ("**"). */
  marks?: string;
}

export interface GhsSummary {
  signalWord?: SignalWord;
  pictograms: Pictogram[];
  hazardStatements: MergedHazard[];
}

/** "Danger" if any source says so, else "Warning" if any does; pictograms and statements in code order. */
export function summarizeGhs(classifications: GhsClassification[]): GhsSummary {
  const words = classifications.map((c) => c.signalWord);
  const signalWord = words.includes("Danger") ? "Danger" : words.includes("Warning") ? "Warning" : undefined;
  const pictograms = new Map<string, Pictogram>();
  const hazards = new Map<string, MergedHazard>();
  for (const c of classifications) {
    for (const p of c.pictograms) if (!pictograms.has(p.code)) pictograms.set(p.code, p);
    for (const h of c.hazardStatements) {
      const merged = hazards.get(h.code) ?? { code: h.code, text: h.text, sources: [] };
      if (!merged.hazardClass && h.hazardClass) merged.hazardClass = h.hazardClass;
      if (!merged.sources.includes(c.source)) merged.sources.push(c.source);
      if (h.percent !== undefined && h.percent >= (merged.percent ?? -1)) {
        merged.percent = h.percent;
        if (h.share) merged.share = h.share;
        else delete merged.share;
      }
      if (h.marks && (merged.marks ?? "").length < h.marks.length) merged.marks = h.marks;
      hazards.set(h.code, merged);
    }
  }
  const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code, "en", { numeric: true });
  return {
    ...(signalWord ? { signalWord } : {}),
    pictograms: [...pictograms.values()].sort(byCode),
    hazardStatements: [...hazards.values()].sort(byCode),
  };
}
