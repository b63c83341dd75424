/**
 * Scores a record found for a reference and turns the scores into a verdict. The thresholds (also in the
 * verify_references output schema):
 * - a record found by an identifier in the reference (DOI, PMID, arXiv id, W id) is the reference's record;
 *   a record found by search is only when its title similarity is at least {@link TITLE_SAME_WORK} (0.75);
 * - `confidence` (how well the record matches; for not_found, the best rejected record's) is the weighted agreement over the fields the reference gives (title 0.55, first author
 *   0.2, year 0.15, journal 0.1), raised to 0.5 + half of it for records found by identifier;
 * - `verified`: every field given agrees (title similarity ≥ {@link TITLE_AGREES}, 0.95; same first-author
 *   surname; same year; journal names compatible); `mismatch`: the record is found but the listed fields
 *   disagree; `ambiguous`: another record scores within {@link AMBIGUOUS_MARGIN} (0.05) of the best;
 *   `not_found`: no record qualifies.
 */
import type { ParsedReference } from "./parse_references.ts";
import { editRatio, normalize, sameJournal, titleSimilarity } from "./similarity.ts";
import { mergeUpdates, type WorkUpdate } from "../../../sources/works/updates.ts";

export const TITLE_SAME_WORK = 0.75;
export const TITLE_AGREES = 0.95;
export const AMBIGUOUS_MARGIN = 0.05;
const WEIGHTS = { title: 0.55, first_author: 0.2, year: 0.15, journal: 0.1 } as const;
export type Field = keyof typeof WEIGHTS;

/** One record that may be the reference's, from any source, with what its sources say about retraction. */
export interface Candidate {
  title?: string;
  firstAuthor?: string;
  year?: string;
  /** Journal names the record carries (full title, abbreviation). */
  journals: string[];
  volume?: string;
  firstPage?: string;
  pmid?: string;
  doi?: string;
  openalex?: string;
  arxiv?: string;
  pmcid?: string;
  oaUrl?: string;
  /** Retraction notices, each prefixed with its source. */
  notices: string[];
  /** Corrections, expressions of concern and retractions the sources list for this record. */
  updates: WorkUpdate[];
  /** Sources whose retraction signals were read for this record. */
  checked: Set<string>;
  /** Found by an identifier the reference gives. */
  byId: boolean;
}

export interface Scored {
  candidate: Candidate;
  confidence: number;
  titleSimilarity?: number;
  /** Fields that disagree; `doi`/`pmid` when the reference names another identifier than the record's. */
  disagree: (Field | "doi" | "pmid")[];
  /** Qualifies as the reference's record (see the thresholds above). */
  sameWork: boolean;
}

export function score(ref: ParsedReference, c: Candidate): Scored {
  const parts: [Field, number, boolean][] = [];
  let tSim: number | undefined;
  if (ref.title && c.title) {
    tSim = titleSimilarity(ref.title, c.title);
    parts.push(["title", tSim, tSim >= TITLE_AGREES]);
  }
  if (ref.firstAuthor && c.firstAuthor) {
    const a = normalize(ref.firstAuthor);
    const b = normalize(c.firstAuthor);
    const same = a === b;
    parts.push(["first_author", same ? 1 : editRatio(a, b) >= 0.8 ? 0.5 : 0, same]);
  }
  if (ref.year && c.year) {
    const gap = Math.abs(Number(ref.year) - Number(c.year));
    parts.push(["year", gap === 0 ? 1 : gap === 1 ? 0.5 : 0, gap === 0]);
  }
  if (ref.journal && c.journals.length) {
    const same = sameJournal(ref.journal, ...c.journals);
    parts.push(["journal", same ? 1 : 0, same]);
  }
  const weight = parts.reduce((sum, [f]) => sum + WEIGHTS[f], 0);
  const agreement = weight ? parts.reduce((sum, [f, s]) => sum + WEIGHTS[f] * s, 0) / weight : 1;
  const confidence = round(c.byId ? 0.5 + agreement / 2 : agreement);
  return {
    candidate: c,
    confidence,
    titleSimilarity: tSim === undefined ? undefined : round(tSim),
    disagree: parts.filter(([, , ok]) => !ok).map(([f]) => f),
    sameWork: c.byId || (tSim !== undefined ? tSim >= TITLE_SAME_WORK : agreement >= TITLE_SAME_WORK),
  };
}

export type Verdict = "verified" | "mismatch" | "ambiguous" | "not_found";

export interface Decision {
  verdict: Verdict;
  best?: Scored;
  /** The runner-up when the verdict is ambiguous. */
  rival?: Scored;
  confidence: number;
}

/** The verdict over every candidate found (already merged, one per work). */
export function decide(ref: ParsedReference, candidates: readonly Candidate[]): Decision {
  const scored = candidates.map((c) => score(ref, c)).sort((a, b) =>
    Number(b.candidate.byId) - Number(a.candidate.byId) || b.confidence - a.confidence
  );
  const qualifying = scored.filter((s) => s.sameWork);
  const best = qualifying[0];
  if (!best) return { verdict: "not_found", confidence: scored[0]?.confidence ?? 0 };
  const rival = qualifying[1];
  if (!best.candidate.byId && rival && rival.confidence >= best.confidence - AMBIGUOUS_MARGIN) {
    return { verdict: "ambiguous", best, rival, confidence: best.confidence };
  }
  return { verdict: best.disagree.length ? "mismatch" : "verified", best, confidence: best.confidence };
}

/** Folds candidates that are the same work (same DOI, PMID or W id) into one, keeping every id and notice. */
export function mergeCandidates(candidates: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of candidates) {
    const same = out.find((o) =>
      (c.doi && o.doi && c.doi.toLowerCase() === o.doi.toLowerCase()) || (c.pmid && c.pmid === o.pmid) ||
      (c.openalex && c.openalex === o.openalex)
    );
    if (!same) {
      out.push({
        ...c,
        journals: [...c.journals],
        notices: [...c.notices],
        updates: [...c.updates],
        checked: new Set(c.checked),
      });
      continue;
    }
    for (
      const key of [
        "title",
        "firstAuthor",
        "year",
        "volume",
        "firstPage",
        "pmid",
        "doi",
        "openalex",
        "arxiv",
        "pmcid",
        "oaUrl",
      ] as const
    ) {
      same[key] ??= c[key];
    }
    same.journals.push(...c.journals.filter((j) => !same.journals.includes(j)));
    same.notices.push(...c.notices.filter((n) => !same.notices.includes(n)));
    same.updates = mergeUpdates(same.updates, c.updates);
    for (const s of c.checked) same.checked.add(s);
    same.byId ||= c.byId;
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
