/**
 * A gene's RefSeq products appear once per annotated sequence: on each assembly placement, in the RefSeq
 * comment section, and on its RefSeqGene (NG_) alignment, which is annotated on its own schedule and can
 * still carry an earlier version (NM_000546.5 beside the current NM_000546.6). A product is one
 * accession; only its current (highest) version is listed, and a version seen only on a RefSeqGene
 * alignment never outranks one seen anywhere else.
 */

export interface RefSeqSighting {
  /** Versioned when the record gives a version: "NM_006158.4". */
  accession: string;
  /** Seen among the products of a RefSeqGene (NG_) placement. */
  onRefSeqGene: boolean;
}

/**
 * The current version of each accession, in order of first appearance.
 * @example currentVersions([{ accession: "NM_1.5", onRefSeqGene: false }, { accession: "NM_1.4", onRefSeqGene: true }])
 *   // ["NM_1.5"]
 */
export function currentVersions(sightings: RefSeqSighting[]): string[] {
  const best = new Map<string, { version: number; accession: string; elsewhere: boolean }>();
  for (const { accession, onRefSeqGene } of sightings) {
    const [, base, v] = /^(.+?)(?:\.(\d+))?$/.exec(accession)!;
    const version = v === undefined ? -1 : Number(v);
    const seen = best.get(base);
    const elsewhere = !onRefSeqGene;
    if (
      !seen || (elsewhere && !seen.elsewhere) ||
      (elsewhere === seen.elsewhere && version > seen.version)
    ) {
      best.set(base, { version, accession, elsewhere });
    }
  }
  return [...best.values()].map((b) => b.accession);
}
