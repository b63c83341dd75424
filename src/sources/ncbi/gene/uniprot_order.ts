/**
 * A gene record names UniProtKB entries in several places: the UniProtKB blocks of its RefSeq proteins,
 * its locus products, and the "Related Sequences" section, where each UniProt protein appears as a
 * product whose own accession is the entry's (primary) accession. Read in record order, that gives old
 * secondary accessions first, the primary twice (once as `P07196.3`) and unreviewed entries mixed in.
 * This orders them: the primary reviewed (Swiss-Prot) accession first, once; other reviewed ones; then
 * unreviewed (TrEMBL); each base accession once, without version or isoform suffix.
 */

export interface UniprotTag {
  /** "UniProtKB/Swiss-Prot" or "UniProtKB/TrEMBL". */
  db: string;
  value: string;
}

/** UniProtKB accession format (uniprot.org/help/accession_numbers). */
const ACCESSION = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})$/;

/** "P07196.3" → "P07196", "P04637-2" → "P04637"; undefined when not a UniProtKB accession. */
export function baseAccession(value: string): string | undefined {
  const base = value.trim().toUpperCase().replace(/\.\d+$/, "").replace(/-\d+$/, "");
  return ACCESSION.test(base) ? base : undefined;
}

/**
 * @param tags UniProtKB tags in record order.
 * @param entryAccessions accessions of the record's UniProt protein products (Related Sequences): an entry
 *   is filed under its primary accession, so a reviewed tag naming one of these is the primary.
 * @example orderUniprot([{ db: "UniProtKB/Swiss-Prot", value: "Q96A54" }, { db: "UniProtKB/TrEMBL", value: "A0A024R3N7" },
 *   { db: "UniProtKB/Swiss-Prot", value: "P07196.3" }], new Set(["P07196"])) // ["P07196", "Q96A54", "A0A024R3N7"]
 */
export function orderUniprot(tags: UniprotTag[], entryAccessions: ReadonlySet<string>): string[] {
  const reviewed = new Map<string, number>();
  const unreviewed: string[] = [];
  for (const tag of tags) {
    const base = baseAccession(tag.value);
    if (!base) continue;
    if (/swiss-prot/i.test(tag.db)) reviewed.set(base, (reviewed.get(base) ?? 0) + 1);
    else unreviewed.push(base);
  }
  const candidates = [...reviewed.keys()];
  const primary = candidates.find((a) => entryAccessions.has(a)) ??
    candidates.reduce<string | undefined>(
      (best, a) => best && reviewed.get(best)! >= reviewed.get(a)! ? best : a,
      undefined,
    );
  const ordered = primary ? [primary, ...candidates.filter((a) => a !== primary)] : candidates;
  return [...new Set([...ordered, ...unreviewed])];
}
